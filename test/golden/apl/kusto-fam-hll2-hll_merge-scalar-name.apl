// expect: the page's example verbatim, unnamed: column dcount_hll_merged = 20
// (source: https://learn.microsoft.com/kusto/query/hll-merge-function, output column `dcount_hll_merged`)
range x from 1 to 10 step 1
| extend y = x + 10
| summarize hll_x = hll(x), hll_y = hll(y)
| project merged = hll_merge(hll_x, hll_y)
| project dcount_hll(merged)
