(
  golden:reqs | where code == "500" | align to 30m using prom::rate | group by svc using sum,
  golden:reqs | align to 30m using prom::rate | group by svc using sum;
) | compute error_ratio using /
