// expect: rows [1,2,4]-[4,2,1] = [-3,0,3], [2,4,8]-[8,4,2] = [-6,0,6], [3,6,12]-[12,6,3] = [-9,0,9] (source: https://learn.microsoft.com/kusto/query/series-subtract-function)
range x from 1 to 3 step 1
| extend y = x * 2
| extend z = y * 2
| project s1 = pack_array(x,y,z), s2 = pack_array(z, y, x)
| extend s1_subtract_s2 = series_subtract(s1, s2)
