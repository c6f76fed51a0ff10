// Kusto: https://learn.microsoft.com/kusto/query/datetime-diff-function (microsecond column, with whole microseconds: Quarry keeps microseconds) -- .100900 - .100800 is 100 microseconds, never 98 or 99 from float noise
print microsecond = datetime_diff('microsecond',datetime(2017-10-30 23:00:00.100900),datetime(2017-10-30 23:00:00.100800))
