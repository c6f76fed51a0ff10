// expect: series_asin([-1,0,1]) is [-1.5707963267948966,0,1.5707963267948966] (the page quotes the two non-zero values as strings, a slip: the function returns numbers) (source: https://learn.microsoft.com/kusto/query/series-asin-function)
print arr = dynamic([-1,0,1])
| extend arr_asin = series_asin(arr)
