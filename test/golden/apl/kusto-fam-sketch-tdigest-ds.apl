// expect: bytes are 0, 10, 50, 100, 300, 1234, 2000 (one null): percentile_tdigest(tdigest(bytes), 50) is
// percentile(bytes, 50) = 100 (nearest rank 4 of 7), rank_tdigest of 300 counts the 5 values <= 300, and
// percentrank_tdigest is 5 * 100 / 7 (sources: https://learn.microsoft.com/kusto/query/percentile-tdigest-function,
// https://learn.microsoft.com/kusto/query/rank-tdigest-function, https://learn.microsoft.com/kusto/query/percentrank-tdigest-function)
ds
| summarize t = tdigest(bytes), p = percentile(bytes, 50)
| project pt = percentile_tdigest(t, 50, typeof(long)), p, r = rank_tdigest(t, 300), pr = percentrank_tdigest(t, 300)
