// expect: rows x -1, 0, 1; div -inf, NaN, +inf; isfinite false for all three (the page prints 0) (source: https://learn.microsoft.com/kusto/query/isfinite-function)
range x from -1 to 1 step 1
| extend y = 0.0
| extend div = 1.0*x/y
| extend isfinite=isfinite(div)
