golden:reqs | where svc == "a" and code == "200" or svc == "b" and code == "500" | align to 1h using max
