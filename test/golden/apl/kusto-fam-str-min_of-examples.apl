// expect: -3 (source: https://learn.microsoft.com/kusto/query/min-of-function, first example)
print result=min_of(10, 1, -3, 17)
