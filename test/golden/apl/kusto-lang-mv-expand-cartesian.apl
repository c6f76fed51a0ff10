// Kusto: mv-expand, "Cartesian product of two columns" (four rows: each bag entry with 5 and 6).
// https://learn.microsoft.com/kusto/query/mv-expand-operator
datatable (a: int, b: dynamic, c: dynamic)
[
    1, dynamic({"prop1": "a", "prop2": "b"}), dynamic([5, 6])
]
| mv-expand b
| mv-expand c
