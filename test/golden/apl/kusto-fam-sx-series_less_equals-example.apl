// expect: series_less_equals([1,2,4], [4,2,1]) is [true,true,false] (source: https://learn.microsoft.com/kusto/query/series-less-equals-function)
print s1 = dynamic([1,2,4]), s2 = dynamic([4,2,1])
| extend s1_less_equals_s2 = series_less_equals(s1, s2)
