// expect: 0|[5,1,3]|[5,3], 1|[4,10,8,7]|[10,8] (columns index, Arr, Top2) (source: https://learn.microsoft.com/kusto/query/mv-apply-operator "Find top two elements in an array")
let data = datatable (index: int, Arr: dynamic)
[
    0, dynamic([5, 1, 3]),
    1, dynamic([4, 10, 8, 7])
];
data
| mv-apply Arr2=Arr to typeof(long) on
    (
    top 2 by Arr2
    | summarize Top2=make_list(Arr2)
    )
