// expect: series_sign([-6,0,8]) is [-1,0,1] (source: https://learn.microsoft.com/kusto/query/series-sign-function)
print arr = dynamic([-6, 0, 8])
| extend arr_sign = series_sign(arr)
