golden:cpu | where host == "h3" | align to 10m using count
