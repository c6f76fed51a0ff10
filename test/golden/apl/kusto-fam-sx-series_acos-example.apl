// expect: series_acos([-1,0,1]) is [3.1415926535897931,1.5707963267948966,0.0] (the page's arr column shows [-6.5,0,8.2], a slip: the query prints [-1,0,1]) (source: https://learn.microsoft.com/kusto/query/series-acos-function)
print arr = dynamic([-1,0,1])
| extend arr_acos = series_acos(arr)
