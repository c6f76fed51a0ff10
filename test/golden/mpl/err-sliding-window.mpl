golden:cpu | align to 1m over 5m using avg
