// expect: list_x [1,2,3,4,5], stdev_x 1.58113883008419 (compared to 14 decimals), variance_x 2.5 (the list named as Kusto does: Quarry names an unnamed make_list `make_list_x`, as Axiom does, docs/apl.md §5) (source: https://learn.microsoft.com/kusto/query/stdev-aggregation-function, https://learn.microsoft.com/kusto/query/variance-aggregation-function, the pages' examples)
range x from 1 to 5 step 1
| summarize list_x = make_list(x), stdev(x), variance(x)
| extend stdev_x = round(stdev_x, 14)
