// expect: series_log([1,2,3]) is [0.0,0.69314718055994529,1.0986122886681098] (source: https://learn.microsoft.com/kusto/query/series-log-function)
print s = dynamic([1,2,3])
| extend s_log = series_log(s)
