golden:reqs | where svc == "a" and code == "200" | map rate | align to 10m using min
