golden:cpu | align to 10m using count | map fill::const(0) | group using sum
