// Kusto: mv-expand, "Single column - bag expansion to key-value pairs" (kind=array: ["prop1","a1"], key
// prop1, val a1; …).
// https://learn.microsoft.com/kusto/query/mv-expand-operator
datatable (a: int, b: dynamic)
[
    1, dynamic({"prop1": "a1", "prop2": "b1"}),
    2, dynamic({"prop1": "a2", "prop2": "b2"})
]
| mv-expand kind=array b 
| extend key = b[0], val=b[1]
