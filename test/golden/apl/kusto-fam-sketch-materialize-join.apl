// expect: hll and tdigest values survive materialize, a join and a second summarize (hll_merge nested in
// dcount_hll inside summarize): methods by status union to all 5, bytes by status merge to p100 2000
// (sources: https://learn.microsoft.com/kusto/query/hll-merge-aggregation-function,
// https://learn.microsoft.com/kusto/query/tdigest-merge-aggregation-function)
let hs = materialize(ds | summarize h = hll(method) by status);
hs
| join kind=inner (ds | summarize t = tdigest(bytes) by status) on status
| summarize n = dcount_hll(hll_merge(h)), tm = tdigest_merge(t)
| project n, p100 = percentile_tdigest(tm, 100, typeof(long))
