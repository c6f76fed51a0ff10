// Kusto: mv-expand, "Single column - array expansion" (a, b: 1 10, 1 20, 2 a, 2 b).
// https://learn.microsoft.com/kusto/query/mv-expand-operator
datatable (a: int, b: dynamic)
[
    1, dynamic([10, 20]),
    2, dynamic(['a', 'b'])
]
| mv-expand b
