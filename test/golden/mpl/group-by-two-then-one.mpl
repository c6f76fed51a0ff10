golden:reqs | align to 30m using prom::rate | group by svc, code using sum | group by svc using max
