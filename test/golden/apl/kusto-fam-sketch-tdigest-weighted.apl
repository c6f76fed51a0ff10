// expect: tdigest(x, weight) holds weighted values (source: https://learn.microsoft.com/kusto/query/tdigest-aggregation-function):
// each of the 7 byte values with weight 2 (total 14); the median (weight 7 of 14) falls on 100, p100 is 2000
ds
| summarize t = tdigest(bytes, 2)
| project p50 = percentile_tdigest(t, 50, typeof(long)), p100 = percentile_tdigest(t, 100, typeof(long)), r = rank_tdigest(t, 2000)
