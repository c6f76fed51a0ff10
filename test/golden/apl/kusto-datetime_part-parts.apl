// Kusto: https://learn.microsoft.com/kusto/query/datetime-part-function (example; nanosecond needs 100 ns ticks, docs/apl.md) -- 2017, 4, 10, 44, 30, 303, 1, 2, 3, 765, 765432
let dt = datetime(2017-10-30 01:02:03.7654321);
print
year = datetime_part("year", dt),
quarter = datetime_part("quarter", dt),
month = datetime_part("month", dt),
weekOfYear = datetime_part("week_of_year", dt),
day = datetime_part("day", dt),
dayOfYear = datetime_part("dayOfYear", dt),
hour = datetime_part("hour", dt),
minute = datetime_part("minute", dt),
second = datetime_part("second", dt),
millisecond = datetime_part("millisecond", dt),
microsecond = datetime_part("microsecond", dt)
