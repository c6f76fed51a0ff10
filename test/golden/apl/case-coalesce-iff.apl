ds
| extend cls = case(toint(status) >= 500, "server", toint(status) >= 400, "client", "ok"), c = coalesce(city, "unknown"), big = iff(bytes > 500, "big", "small")
| summarize n = count() by cls, c, big
| sort by cls asc, c asc, big asc
