// expect: dcount_hll(hll(x)) is dcount(x): 5 methods (GET, POST, get, DELETE, PUT), and hll per hour merged
// with hll_merge counts the same 5 (source: https://learn.microsoft.com/kusto/query/hll-aggregation-function,
// https://learn.microsoft.com/kusto/query/dcount-hll-function)
let hourly = ds | summarize h = hll(method) by bin(_time, 1h);
ds
| summarize h = hll(method), d = dcount(method)
| extend merged = toscalar(hourly | summarize m = hll_merge(h) | project dcount_hll(m))
| project dh = dcount_hll(h), d, merged
