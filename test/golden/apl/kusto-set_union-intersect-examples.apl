// expect: set_union rows [1,2,4,8], [2,4,8,16], [3,6,12,24]; set_intersect rows [1], [2], [3]; set_intersect of disjoint arrays -> [] (source: https://learn.microsoft.com/kusto/query/set-union-function, https://learn.microsoft.com/kusto/query/set-intersect-function, the pages' examples)
range x from 1 to 3 step 1
| extend y = x * 2
| extend z = y * 2
| extend w = z * 2
| extend a1 = pack_array(x,y,x,z), a2 = pack_array(x, y), a3 = pack_array(w), a4 = pack_array(w,x)
| project Out=set_union(a1, a2, a3), Column1 = set_intersect(a1, a2, a4), arr = set_intersect(dynamic([1, 2, 3]), dynamic([4,5]))
