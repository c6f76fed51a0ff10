golden:reqs | where svc == "b" and code == "500" | align to 30m using prom::rate
