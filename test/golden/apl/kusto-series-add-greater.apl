// expect: s1_add_s2 [5,4,5], [10,8,10], [15,12,15]; series_greater([1,2,4], [4,2,1]) -> [false,false,true] (source: https://learn.microsoft.com/kusto/query/series-add-function, https://learn.microsoft.com/kusto/query/series-greater-function, the pages' examples)
range x from 1 to 3 step 1
| extend y = x * 2
| extend z = y * 2
| project s1 = pack_array(x,y,z), s2 = pack_array(z, y, x)
| extend s1_add_s2 = series_add(s1, s2), greater = series_greater(dynamic([1,2,4]), dynamic([4,2,1]))
