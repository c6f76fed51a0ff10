// expect: stdevif_x 29.1547594742265 (15 significant digits on the page: compared at 13 decimals); varianceif_x 850 (source: https://learn.microsoft.com/kusto/query/stdevif-aggregation-function, https://learn.microsoft.com/kusto/query/varianceif-aggregation-function)
range x from 1 to 100 step 1
| summarize stdevif(x, x % 2 == 0), varianceif(x, x%2 == 0)
| extend stdevif_x = round(stdevif_x, 13)
