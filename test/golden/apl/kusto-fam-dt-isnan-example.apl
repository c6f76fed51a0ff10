// expect: rows x -1, 0, 1; y 1, 0, -1; div -1, NaN, -1; isnan false, true, false (source: https://learn.microsoft.com/kusto/query/isnan-function)
range x from -1 to 1 step 1
| extend y = (-1*x)
| extend div = 1.0*x/y
| extend isnan=isnan(div)
