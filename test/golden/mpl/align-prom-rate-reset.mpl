golden:reqs | where svc == "a" and code == "200" | align to 10m using prom::rate
