// expect: [1,2,3,4,5] and 2 (the page's header says list_x/variance_x; Quarry names them make_list_x/variancep_x) (source: https://learn.microsoft.com/kusto/query/variancep-aggregation-function)
range x from 1 to 5 step 1
| summarize make_list(x), variancep(x)
