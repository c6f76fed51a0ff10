// expect: yearStart 2016-01-01, 2017-01-01, 2018-01-01 (source: https://learn.microsoft.com/kusto/query/startofyear-function)
range offset from -1 to 1 step 1
| project yearStart = startofyear(datetime(2017-01-01 10:10:17), offset)
