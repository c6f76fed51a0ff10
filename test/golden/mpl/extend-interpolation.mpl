golden:cpu | align to 1h using max | group by region using max | extend label = "region ${region}", tier = 2
