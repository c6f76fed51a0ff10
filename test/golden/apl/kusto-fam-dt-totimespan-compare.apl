// expect: totimespan("0.00:01:00") == time(1min) is true (source: https://learn.microsoft.com/kusto/query/totimespan-function)
print r = totimespan("0.00:01:00") == time(1min)
