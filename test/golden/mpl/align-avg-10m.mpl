golden:cpu | where host == "h1" | align to 10m using avg
