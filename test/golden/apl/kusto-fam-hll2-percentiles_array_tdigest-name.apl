// expect: the page's example: percentiles_array_tdigest(tdigestRes, range(0, 100, 50), typeof(int)) unnamed is
// percentile_tdigest_tdigestRes (as the page prints it), one array per row; nearest rank of GET's
// 200, 200, 404, 502 at 0/50/100 is 200, 200, 502; single-status methods repeat their status
// (source: https://learn.microsoft.com/kusto/query/percentile-array-tdigest-function)
ds
| summarize tdigestRes = tdigest(toint(status)) by method
| project method, percentiles_array_tdigest(tdigestRes, range(0, 100, 50), typeof(int))
| order by method asc
