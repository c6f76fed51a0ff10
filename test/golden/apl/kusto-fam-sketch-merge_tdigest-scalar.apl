// expect: percentile_tdigest_merged 20 (source: https://learn.microsoft.com/kusto/query/merge-tdigest-function)
range x from 1 to 10 step 1
| extend y = x + 10
| summarize tdigestX = tdigest(x), tdigestY = tdigest(y)
| project merged = merge_tdigest(tdigestX, tdigestY)
| project percentile_tdigest_merged = percentile_tdigest(merged, 100, typeof(long))
