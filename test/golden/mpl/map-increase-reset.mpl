golden:reqs | where svc == "a" and code == "200" | map increase | align to 10m using sum
