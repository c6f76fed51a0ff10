// expect: series_ceiling([-1.5,1,2.5]) is [-1.0,1.0,3.0] (source: https://learn.microsoft.com/kusto/query/series-ceiling-function)
print s = dynamic([-1.5,1,2.5])
| extend s_ceiling = series_ceiling(s)
