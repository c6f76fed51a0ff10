// expect: 1h in daily bins aligned to 12h rounds down to -12:00:00 (source: https://learn.microsoft.com/kusto/query/bin-at-function, the page's example)
print bin_at(time(1h), 1d, 12h)
