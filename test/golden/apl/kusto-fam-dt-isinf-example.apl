// expect: rows x -1, 0, 1; y 0; div -inf, NaN, +inf; isinf true, false, true (source: https://learn.microsoft.com/kusto/query/isinf-function)
range x from -1 to 1 step 1
| extend y = 0.0
| extend div = 1.0*x/y
| extend isinf=isinf(div)
