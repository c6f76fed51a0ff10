// Kusto: mv-expand, "Convert output" (b stays dynamic, c becomes int: getschema lists a string, b
// dynamic, c int).
// https://learn.microsoft.com/kusto/query/mv-expand-operator
datatable (a: string, b: dynamic, c: dynamic)[
    "Constant", dynamic([1, 2, 3, 4]), dynamic([6, 7, 8, 9])
]
| mv-expand b, c to typeof(int)
| getschema 
