// expect: an unnamed hll(method) is hll_method (the page's hll_DamageProperty), and an unnamed
// dcount_hll(hll_method) is dcount_hll_hll_method = 5 (GET, POST, get, DELETE, PUT)
// (source: https://learn.microsoft.com/kusto/query/hll-aggregation-function, https://learn.microsoft.com/kusto/query/dcount-hll-function)
ds
| summarize hll(method)
| extend dcount_hll(hll_method)
| project-away hll_method
