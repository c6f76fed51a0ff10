// expect: a scalar function with a tabular let and a window call, expanded where called: row_cumsum of x = 1, 2, 3 is 1, 3, 6 (the row_cumsum page) plus toscalar of the let's max(y) = 20 gives c = 21, 23, 26; the query's own T (100) is not the function's T: d = 100 on every row (source: https://learn.microsoft.com/kusto/query/row-cumsum-function ; https://learn.microsoft.com/kusto/query/functions/user-defined-functions)
let T = datatable(y: long)[100];
let g = (a: long) { let T = datatable(y: long)[10, 20]; row_cumsum(a) + toscalar(T | summarize max(y)) };
range x from 1 to 3 step 1
| extend c = g(x), d = toscalar(T | summarize max(y))
