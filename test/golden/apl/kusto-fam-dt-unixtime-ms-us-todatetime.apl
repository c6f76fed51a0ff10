// expect: both 2019-01-01 00:00:00 (source: https://learn.microsoft.com/kusto/query/unixtime-milliseconds-todatetime-function, https://learn.microsoft.com/kusto/query/unixtime-microseconds-todatetime-function)
print ms = unixtime_milliseconds_todatetime(1546300800000), us = unixtime_microseconds_todatetime(1546300800000000)
