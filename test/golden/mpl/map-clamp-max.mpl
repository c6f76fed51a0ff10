golden:cpu | where host == "h2" | align to 20m using avg | map max(60)
