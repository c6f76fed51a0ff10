// expect: series_not_equals([1,2,4], [4,2,1]) is [true,false,true] (source: https://learn.microsoft.com/kusto/query/series-not-equals-function)
print s1 = dynamic([1,2,4]), s2 = dynamic([4,2,1])
| extend s1_not_equals_s2 = series_not_equals(s1, s2)
