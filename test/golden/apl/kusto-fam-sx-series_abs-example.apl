// expect: series_abs(dynamic([-6.5,0,8.2])) is [6.5,0,8.2] (source: https://learn.microsoft.com/kusto/query/series-abs-function)
print arr = dynamic([-6.5,0,8.2])
| extend arr_abs = series_abs(arr)
