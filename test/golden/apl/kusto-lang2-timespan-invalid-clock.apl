// expect: an error: 25 hours is not an hours field of the days.hours:minutes:seconds form (hours 0-23; a day count goes before the dot) (source: https://learn.microsoft.com/kusto/query/scalar-data-types/timespan)
print a = time(25:00:00)
