golden:cpu | where host == "h3" | map filter::lte(40) | align to 10m using count
