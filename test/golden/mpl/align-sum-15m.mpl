golden:cpu | where host == "h2" | align to 15m using sum
