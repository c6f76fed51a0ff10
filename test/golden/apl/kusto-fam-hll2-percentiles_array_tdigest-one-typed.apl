// expect: "If only one percent was provided, and the type was provided also, then the result will be a
// column of the same type": p50 typed long is a long column (GET: 200 of 200, 200, 404, 502), not an
// array; without a type, or with two ranks, it stays an array
// (source: https://learn.microsoft.com/kusto/query/percentile-array-tdigest-function, Tip)
ds
| summarize t = tdigest(toint(status)) by method
| project method, p50 = percentiles_array_tdigest(t, 50, typeof(long)), a = percentiles_array_tdigest(t, 50),
          b = percentiles_array_tdigest(t, 0, 100, typeof(long))
| order by method asc
