// expect: a function defined in the body and called in the subquery sees the body's k = 5, not the query's k = 100: h() = 10, and row_cumsum of x = 1, 2, 3 is 1, 3, 6, so c = 11, 13, 16 (source: https://learn.microsoft.com/kusto/query/functions/user-defined-functions ; https://learn.microsoft.com/kusto/query/row-cumsum-function)
let k = 100;
let g = (a: long) { let k = 5; let h = () { k * 2 }; row_cumsum(a) + toscalar(print v = h()) };
range x from 1 to 3 step 1
| extend c = g(x)
