// expect: digests per hour merged by tdigest_merge: the output column is named merge_tdigests_t, as the
// page's example shows (merge_tdigests_PreAggDamageProperty); p100 of all bytes is 2000 and p0 is 0
// (source: https://learn.microsoft.com/kusto/query/tdigest-merge-aggregation-function)
ds
| summarize t = tdigest(bytes) by bin(_time, 1h)
| summarize tdigest_merge(t)
| project p0 = percentile_tdigest(merge_tdigests_t, 0, typeof(long)), p100 = percentile_tdigest(merge_tdigests_t, 100, typeof(long))
