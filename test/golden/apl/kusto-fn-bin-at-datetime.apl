// expect: daily bins aligned to noon -> 2017-05-14T12:00:00Z; weekly bins aligned to Sunday 2017-06-04 -> 2017-05-14T00:00:00Z (source: https://learn.microsoft.com/kusto/query/bin-at-function, the page's example)
print noon = bin_at(datetime(2017-05-15 10:20:00.0), 1d, datetime(1970-01-01 12:00:00.0)), week = bin_at(datetime(2017-05-17 10:20:00.0), 7d, datetime(2017-06-04 00:00:00.0))
