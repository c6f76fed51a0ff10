// expect: Column1 [1,2,4,1,2], [2,4,8,2,4], [3,6,12,3,6] (source: https://learn.microsoft.com/kusto/query/array-concat-function)
range x from 1 to 3 step 1
| extend y = x * 2
| extend z = y * 2
| extend a1 = pack_array(x,y,z), a2 = pack_array(x, y)
| project array_concat(a1, a2)
