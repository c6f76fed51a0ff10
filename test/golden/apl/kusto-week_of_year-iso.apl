// Kusto: https://learn.microsoft.com/kusto/query/week-of-year-function (examples) -- ISO 8601 weeks: 53, 25, 1, 52
print a = week_of_year(datetime(2020-12-31)), b = week_of_year(datetime(2020-06-15)), c = week_of_year(datetime(1970-01-01)), d = week_of_year(datetime(2000-01-01))
