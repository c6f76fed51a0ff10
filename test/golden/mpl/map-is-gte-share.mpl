golden:cpu | where host == "h3" | map is::gte(50) | align to 30m using avg
