// expect: the page's example, the seconds in a day three ways: 86400, 86400, 86400 (source: https://learn.microsoft.com/kusto/query/scalar-data-types/timespan)
print result1 = 1d / 1s, result2 = time(1d) / time(1s), result3 = 24 * 60 * time(00:01:00) / time(1s)
