// expect: per-group digests merged across groups answer the percentile of all values: p50 of 1..9 is 5,
// p100 is 9 (source: https://learn.microsoft.com/kusto/query/tdigest-merge-aggregation-function,
// https://learn.microsoft.com/kusto/query/percentile-tdigest-function)
datatable(g:string, v:long)
[
    "a", 1, "a", 2, "a", 3,
    "b", 4, "b", 5, "b", 6,
    "c", 7, "c", 8, "c", 9
]
| summarize PreAgg = tdigest(v) by g
| summarize merged = tdigest_merge(PreAgg)
| project p50 = percentile_tdigest(merged, 50, typeof(long)), p100 = percentile_tdigest(merged, 100)
