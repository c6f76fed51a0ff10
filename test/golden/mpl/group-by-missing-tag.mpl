golden:cpu | align to 1h using max | group by spot using sum
