// expect: weekEnd 2016-12-31, 2017-01-07, 2017-01-14 at 23:59:59.9999999 (Saturday; Quarry's last instant is .999999) (source: https://learn.microsoft.com/kusto/query/endofweek-function)
range offset from -1 to 1 step 1
| project weekEnd = endofweek(datetime(2017-01-01 10:10:17), offset)
