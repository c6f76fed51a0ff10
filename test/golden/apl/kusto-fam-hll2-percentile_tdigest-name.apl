// expect: an unnamed percentile_tdigest(tdigestRes, 100) is percentile_tdigest_tdigestRes; p100 per method
// is its largest status: DELETE 503, GET 502 (200, 404, 200, 502), POST 500, PUT 301, get 200
// (source: https://learn.microsoft.com/kusto/query/percentile-tdigest-function, output column percentile_tdigest_tdigestRes)
ds
| summarize tdigestRes = tdigest(toint(status)) by method
| project method, percentile_tdigest(tdigestRes, 100)
| order by method asc
