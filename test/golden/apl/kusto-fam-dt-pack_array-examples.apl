// expect: [1,2,4], [2,4,8], [3,6,12]; with a string and a timespan: [1,"2","00:00:02"], [2,"4","00:00:04"], [3,"6","00:00:06"] (source: https://learn.microsoft.com/kusto/query/pack-array-function)
range x from 1 to 3 step 1
| extend y = x * 2
| extend z = y * 2
| extend y2 = tostring(x * 2)
| extend z2 = (x * 2) * 1s
| project c1 = pack_array(x, y, z), c2 = pack_array(x, y2, z2)
