// expect: series_less([1,2,4], [4,2,1]) is [true,false,false] (source: https://learn.microsoft.com/kusto/query/series-less-function)
print s1 = dynamic([1,2,4]), s2 = dynamic([4,2,1])
| extend s1_less_s2 = series_less(s1, s2)
