// expect: 0|[5,1,3]|3|2, 1|[4,10,8,7]|8|2, 1|[4,10,8,7]|7|3 (columns row, Arr, value, index) (source: https://learn.microsoft.com/kusto/query/mv-apply-operator "Using with_itemindex for working with a subset of the array")
let data = datatable (row: int, Arr: dynamic)
[
    0, dynamic([5, 1, 3]),
    1, dynamic([4, 10, 8, 7])
];
data
| mv-apply with_itemindex=index value=Arr to typeof(long) on
  (
    // here you have 'index' column
    where index >= 2
  )
