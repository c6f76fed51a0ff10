golden:cpu | where host == "h1" | align to 5m using avg | align to 30m using sum
