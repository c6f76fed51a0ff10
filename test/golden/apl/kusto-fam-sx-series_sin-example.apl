// expect: series_sin([-1,0,1]) is [-0.8414709848078965,0.0,0.8414709848078965] (arr column on the page is a slip) (source: https://learn.microsoft.com/kusto/query/series-sin-function)
print arr = dynamic([-1, 0, 1])
| extend arr_sin = series_sin(arr)
