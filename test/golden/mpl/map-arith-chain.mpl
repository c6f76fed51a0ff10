golden:cpu | where host == "h1" | align to 20m using avg | map * 2 | map + 1 | map / 4
