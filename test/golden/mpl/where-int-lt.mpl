golden:cpu | where cores < 4 | align to 1h using avg
