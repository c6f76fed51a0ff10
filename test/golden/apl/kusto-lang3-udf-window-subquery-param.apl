// expect: parameters given constants are seen inside the body's subqueries: m = 1, so y > m keeps 2, 3 and x in (2, 3) is 0, 1, 1; row_cumsum of x = 1, 2, 3 is 1, 3, 6, times that is 0, 3, 6, plus toscalar(m * 10) = 10 gives c = 10, 13, 16 (source: https://learn.microsoft.com/kusto/query/functions/user-defined-functions ; https://learn.microsoft.com/kusto/query/row-cumsum-function)
let g = (a: long, m: long) {
  row_cumsum(a) * toint(a in (range y from 1 to 3 step 1 | where y > m)) + toscalar(print v = m * 10)
};
range x from 1 to 3 step 1
| extend c = g(x, 1)
