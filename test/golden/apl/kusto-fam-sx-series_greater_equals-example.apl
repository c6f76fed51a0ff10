// expect: series_greater_equals([1,2,4], [4,2,1]) is [false,true,true] (source: https://learn.microsoft.com/kusto/query/series-greater-equals-function)
print s1 = dynamic([1,2,4]), s2 = dynamic([4,2,1])
| extend s1_greater_equals_s2 = series_greater_equals(s1, s2)
