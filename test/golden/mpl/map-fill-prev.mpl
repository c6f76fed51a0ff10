golden:cpu | where host == "h3" | align to 5m using avg | map fill::prev
