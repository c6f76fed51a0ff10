// expect: array_rotate_right by 2 [4,5,1,2,3], by -2 [3,4,5,1,2]; array_shift_right by 2 [null,null,1,2,3], with default -1 [-1,-1,1,2,3], by -2 with -1 [3,4,5,-1,-1] (source: https://learn.microsoft.com/kusto/query/array-rotate-right-function, https://learn.microsoft.com/kusto/query/array-shift-right-function)
print arr=dynamic([1,2,3,4,5])
| extend r1 = array_rotate_right(arr, 2), r2 = array_rotate_right(arr, -2), s1 = array_shift_right(arr, 2), s2 = array_shift_right(arr, 2, -1), s3 = array_shift_right(arr, -2, -1)
