// expect: dcount_hll_merged 20 (source: https://learn.microsoft.com/kusto/query/hll-merge-function)
range x from 1 to 10 step 1
| extend y = x + 10
| summarize hll_x = hll(x), hll_y = hll(y)
| project merged = hll_merge(hll_x, hll_y)
| project dcount_hll_merged = dcount_hll(merged)
