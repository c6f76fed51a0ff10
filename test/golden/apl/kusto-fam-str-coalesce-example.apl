// expect: 42 (source: https://learn.microsoft.com/kusto/query/coalesce-function, the example)
print result=coalesce(tolong("not a number"), tolong("42"), 33)
