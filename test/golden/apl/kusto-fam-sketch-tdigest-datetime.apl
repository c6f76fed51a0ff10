// expect: a digest of datetimes keeps its type: with typeof(datetime) the percentile is a datetime column,
// without it a dynamic value (Kusto's page shows datetime text there)
// (source: https://learn.microsoft.com/kusto/query/percentile-tdigest-function)
datatable(t:datetime)
[
    datetime(2007-12-20 11:30:00), datetime(2007-12-31 23:59:00), datetime(2007-12-01 00:00:00)
]
| summarize d = tdigest(t)
| project typed = percentile_tdigest(d, 100, typeof(datetime)), untyped = percentile_tdigest(d, 100)
