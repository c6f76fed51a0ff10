// expect: an error, as Kusto documents: toscalar() cannot be applied per row, and here the function's tabular let reads its parameter a, a value of the calling row ("'toscalar': can't use 'x' as it is defined outside its row-context scope", https://learn.microsoft.com/kusto/query/toscalar-function#limitations; also https://learn.microsoft.com/kusto/query/functions/user-defined-functions)
let g = (a: long) { let T = range y from 1 to a step 1; row_cumsum(a) + toscalar(T | count) };
range x from 1 to 3 step 1
| extend c = g(x)
