// expect: todatetime("2015-12-31 23:59:59.9") is 2015-12-31T23:59:59.9 (the page shows no output for it); todatetime('12-02-2022') == datetime('12-02-2022') is true (source: https://learn.microsoft.com/kusto/query/todatetime-function)
print t = todatetime("2015-12-31 23:59:59.9"), print_0 = todatetime('12-02-2022') == datetime('12-02-2022')
