// expect: "When the accuracy level is 2, 8000 values are returned": 8000 distinct values count exactly at
// level 2, also through hll(x, 2) and dcount_hll (source: https://learn.microsoft.com/kusto/query/dcount-aggfunction,
// "Estimation accuracy"; https://learn.microsoft.com/kusto/query/hll-aggregation-function)
range x from 1 to 8000 step 1
| summarize d2 = dcount(x, 2), h2 = dcount_hll(hll(x, 2))
