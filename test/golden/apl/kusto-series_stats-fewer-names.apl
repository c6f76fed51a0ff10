// expect: two names keep only the first two columns: min_value 2, min_position 8 (the page's example series: min 2 at index 8) (source: https://learn.microsoft.com/kusto/query/series-stats-function, parameter Name: "If you provide a limited number of names, the table will show only those columns", and the page's example output)
print x=dynamic([23, 46, 23, 87, 4, 8, 3, 75, 2, 56, 13, 75, 32, 16, 29])
| project (min_value, min_position) = series_stats(x)
