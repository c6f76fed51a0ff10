// expect: offsets -1, 0, 1 from 2017-01-01 10:10:17 -> 2016-12-25, 2017-01-01, 2017-01-08 (weeks start on Sunday) (source: https://learn.microsoft.com/kusto/query/startofweek-function, the page's first example; its second is kusto-datetime-ymd-literal.apl)
range offset from -1 to 1 step 1
| project weekStart = startofweek(datetime(2017-01-01 10:10:17), offset)
