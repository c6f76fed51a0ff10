golden:cpu | align to 1h using min | group by cores using min
