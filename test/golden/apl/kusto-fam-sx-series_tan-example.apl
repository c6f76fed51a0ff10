// expect: series_tan([-1,0,1]) is [-1.5574077246549023,0.0,1.5574077246549023] (arr column on the page is a slip) (source: https://learn.microsoft.com/kusto/query/series-tan-function)
print arr = dynamic([-1, 0, 1])
| extend arr_tan = series_tan(arr)
