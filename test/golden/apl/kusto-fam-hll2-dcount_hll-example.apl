// expect: the page's example shape: hll per 10-minute bin, hll_merge, then an unnamed dcount_hll named
// dcount_hll_hllMerged; 5 distinct methods (GET, POST, get, DELETE, PUT)
// (source: https://learn.microsoft.com/kusto/query/dcount-hll-function, output column dcount_hll_hllMerged)
ds
| summarize hllRes = hll(method) by bin(_time, 10m)
| summarize hllMerged = hll_merge(hllRes)
| project dcount_hll(hllMerged)
