// expect: [1,2,3,4,5] and stdevp_x 1.4142135623731 (the page names the list column list_x, Kusto's old make_list name; Quarry's is make_list_x) (source: https://learn.microsoft.com/kusto/query/stdevp-aggregation-function)
range x from 1 to 5 step 1
| summarize make_list(x), stdevp(x)
