// expect: series_equals([1,2,4], [4,2,1]) is [false,true,false] (source: https://learn.microsoft.com/kusto/query/series-equals-function)
print s1 = dynamic([1,2,4]), s2 = dynamic([4,2,1])
| extend s1_equals_s2 = series_equals(s1, s2)
