// expect: 0|[7]|7, 1|[6,11,7]|6, 1|[6,11,7]|11, 1|[6,11,7]|7 (columns index, Arr, Arr2) (source: https://learn.microsoft.com/kusto/query/mv-apply-operator "Internal mv-expand done by mv-apply")
let data = datatable (index: int, Arr: dynamic)
[
    0, dynamic([7]),
    1, dynamic([6, 11, 7])
];
data
| mv-apply Arr2=Arr to typeof(long) on
    (
       take 100
    )
