// Kusto: mv-expand, "Zipped two columns" (1 {prop1:a} 5; 1 {prop2:b} 4; 1 null 3).
// https://learn.microsoft.com/kusto/query/mv-expand-operator
datatable (a: int, b: dynamic, c: dynamic)[
    1, dynamic({"prop1": "a", "prop2": "b"}), dynamic([5, 4, 3])
]
| mv-expand b, c
