// expect: dayStart 2016-12-31, 2017-01-01, 2017-01-02 (source: https://learn.microsoft.com/kusto/query/startofday-function)
range offset from -1 to 1 step 1
| project dayStart = startofday(datetime(2017-01-01 10:10:17), offset)
