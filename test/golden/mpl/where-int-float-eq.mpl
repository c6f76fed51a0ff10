golden:cpu | where cores == 4.0 | align to 1h using avg
