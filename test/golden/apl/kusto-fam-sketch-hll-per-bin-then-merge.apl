// expect: the canonical use — hll per bin, then hll_merge and dcount_hll — gives dcount of the whole set:
// 7 distinct values (source: https://learn.microsoft.com/kusto/query/dcount-hll-function,
// https://learn.microsoft.com/kusto/query/hll-merge-aggregation-function)
datatable(bucket:long, user:string)
[
    1, "a", 1, "b", 1, "a",
    2, "b", 2, "c", 2, "d",
    3, "e", 3, "f", 3, "g", 3, "a"
]
| summarize hllRes = hll(user) by bucket
| summarize hllMerged = hll_merge(hllRes)
| project dcount_hll_hllMerged = dcount_hll(hllMerged)
