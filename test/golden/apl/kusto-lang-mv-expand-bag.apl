// Kusto: mv-expand, "Single column - bag expansion" (single-entry bags: {prop1:a1}, {prop2:b1}, …).
// https://learn.microsoft.com/kusto/query/mv-expand-operator
datatable (a: int, b: dynamic)
[
    1, dynamic({"prop1": "a1", "prop2": "b1"}),
    2, dynamic({"prop1": "a2", "prop2": "b2"})
]
| mv-expand b
