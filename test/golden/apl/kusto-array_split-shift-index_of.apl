// Kusto: https://learn.microsoft.com/kusto/query/array-split-function, array-shift-left-function (all examples) -- [[1,2],[3,4,5]], [[1],[2,3],[4,5]]; [3,4,5,null,null], [3,4,5,-1,-1], [-1,-1,1,2,3]
print arr=dynamic([1,2,3,4,5])
| extend s1 = array_split(arr, 2), s2 = array_split(arr, dynamic([1,3])),
         l1 = array_shift_left(arr, 2), l2 = array_shift_left(arr, 2, -1), l3 = array_shift_left(arr, -2, -1)
| project-away arr
