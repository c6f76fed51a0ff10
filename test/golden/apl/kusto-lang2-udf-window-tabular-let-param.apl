// expect: an error (Quarry's limit, docs/apl.md): the function's tabular let reads its parameter a, and its window call is expanded into the caller's row, where a is no table input; the table must be passed as a tabular parameter (source: https://learn.microsoft.com/kusto/query/functions/user-defined-functions)
let g = (a: long) { let T = range y from 1 to a step 1; row_cumsum(a) + toscalar(T | count) };
range x from 1 to 3 step 1
| extend c = g(x)
