// expect: [0, 50, 100] percentiles as one dynamic array, ranks given as a dynamic array (here range(0, 100, 50)) and
// cast with typeof(long) (source: https://learn.microsoft.com/kusto/query/percentiles-array-tdigest-function);
// nearest-rank on 0..100 gives 0, 50, 100
range x from 0 to 100 step 1
| summarize t = tdigest(x)
| project a = percentiles_array_tdigest(t, range(0, 100, 50), typeof(long)), b = percentiles_array_tdigest(t, 25, 75)
