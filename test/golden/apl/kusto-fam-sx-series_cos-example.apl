// expect: series_cos([-1,0,1]) is [0.54030230586813976,1.0,0.54030230586813976] (arr column on the page is a slip) (source: https://learn.microsoft.com/kusto/query/series-cos-function)
print arr = dynamic([-1,0,1])
| extend arr_cos = series_cos(arr)
