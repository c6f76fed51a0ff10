// expect: the subquery of toscalar in a scalar function with a window call sees the body's let k = 7, not the query's k = 100 (a body's lets are scoped to the body): row_cumsum of x = 1, 2, 3 is 1, 3, 6, plus 7 gives c = 8, 10, 13 (source: https://learn.microsoft.com/kusto/query/functions/user-defined-functions ; https://learn.microsoft.com/kusto/query/row-cumsum-function)
let k = 100;
let g = (a: long) { let k = 7; row_cumsum(a) + toscalar(print v = k) };
range x from 1 to 3 step 1
| extend c = g(x)
