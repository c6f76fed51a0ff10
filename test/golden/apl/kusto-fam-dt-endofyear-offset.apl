// expect: yearEnd 2016-12-31, 2017-12-31, 2018-12-31 at 23:59:59.9999999 (Quarry's last instant is .999999) (source: https://learn.microsoft.com/kusto/query/endofyear-function)
range offset from -1 to 1 step 1
| project yearEnd = endofyear(datetime(2017-01-01 10:10:17), offset)
