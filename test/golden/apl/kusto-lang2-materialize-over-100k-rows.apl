// expect: materialize's result is cached for the query's duration, so both sides of the join read the same 120,000 rows and the same rand() values: n = 120000, differ = 0 (source: https://learn.microsoft.com/kusto/query/materialize-function)
let m = materialize(range x from 1 to 60000 step 1 | extend k = dynamic([0, 1]) | mv-expand k to typeof(long) | extend r = rand());
m
| join kind=inner (m) on x, k
| summarize n = count(), differ = countif(r != r1)
