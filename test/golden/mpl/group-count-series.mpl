golden:cpu | align to 10m using last | group using count
