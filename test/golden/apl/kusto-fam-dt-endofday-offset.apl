// expect: dayEnd 2016-12-31, 2017-01-01, 2017-01-02 at 23:59:59.9999999 (Quarry's last instant is .999999: microseconds, docs/apl.md) (source: https://learn.microsoft.com/kusto/query/endofday-function)
range offset from -1 to 1 step 1
| project dayEnd = endofday(datetime(2017-01-01 10:10:17), offset)
