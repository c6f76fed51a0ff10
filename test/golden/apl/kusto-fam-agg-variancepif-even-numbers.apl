// expect: variancepif_x 833 — the page prints 850, which is the SAMPLE variance of 2, 4, …, 100 (n−1); its own definition (variancep: the population variance, n) gives 833, which Quarry follows (docs/apl.md) (source: https://learn.microsoft.com/kusto/query/variancepif-aggregation-function)
range x from 1 to 100 step 1
| summarize variancepif(x, x%2 == 0)
