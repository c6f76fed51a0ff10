// expect: a function local to the body uses the body's tabular let (sum of y = 30) with the row_number of the caller's rows: c = 1 + 30, 2 + 30, 3 + 30 = 31, 32, 33 (source: https://learn.microsoft.com/kusto/query/row-number-function ; https://learn.microsoft.com/kusto/query/functions/user-defined-functions)
let g = (a: long) { let T = datatable(y: long)[10, 20]; let add = (b: long) { b + toscalar(T | summarize sum(y)) }; add(row_number()) };
range x from 1 to 3 step 1
| extend c = g(x)
