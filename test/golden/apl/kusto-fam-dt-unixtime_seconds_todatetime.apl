// expect: date_time 2019-01-01 00:00:00 (source: https://learn.microsoft.com/kusto/query/unixtime-seconds-todatetime-function)
print date_time = unixtime_seconds_todatetime(1546300800)
