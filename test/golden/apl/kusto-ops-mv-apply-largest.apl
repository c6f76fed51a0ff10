// expect: 0|[1,5,3]|5, 1|[10,2,5,7]|10 (columns index, Arr, topElem) (source: https://learn.microsoft.com/kusto/query/mv-apply-operator "Getting the largest element from the array")
let data = datatable (index: int, Arr: dynamic)
[
    0, dynamic([1, 5, 3]),
    1, dynamic([10, 2, 5, 7])
];
data
| mv-apply topElem=Arr to typeof(long) on
    (
    top 1 by topElem
    )
