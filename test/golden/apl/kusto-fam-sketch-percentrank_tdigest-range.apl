// expect: 68.5 — percentrank_tdigest is rank_tdigest as a percentage of the set's size, the inverse of
// percentile_tdigest (source: https://learn.microsoft.com/kusto/query/percentrank-tdigest-function and
// https://learn.microsoft.com/kusto/query/rank-tdigest-function: rank * 100.0 / count)
range x from 1 to 1000 step 1
| summarize t_x=tdigest(x)
| project pr = percentrank_tdigest(t_x, 685), p = percentile_tdigest(t_x, 68.5, typeof(long))
