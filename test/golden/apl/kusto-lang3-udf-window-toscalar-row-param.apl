// expect: error: a toscalar subquery in a function cannot use a value of the calling row (user-defined functions, restrictions: toscalar() cannot depend on the row context the function is called for): a = x is refused with apl_invalid_argument, not resolved elsewhere (source: https://learn.microsoft.com/kusto/query/functions/user-defined-functions)
let g = (a: long) { row_cumsum(a) + toscalar(print v = a) };
range x from 1 to 3 step 1
| extend c = g(x)
