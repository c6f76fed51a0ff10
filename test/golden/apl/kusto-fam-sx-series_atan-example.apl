// expect: series_atan([-1,0,1]) is [-0.78539816339744828,0.0,0.78539816339744828] (arr column on the page is a slip) (source: https://learn.microsoft.com/kusto/query/series-atan-function)
print arr = dynamic([-1,0,1])
| extend arr_atan = series_atan(arr)
