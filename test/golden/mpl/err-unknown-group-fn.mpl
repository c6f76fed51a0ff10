golden:cpu | align to 1m using avg | group using median
