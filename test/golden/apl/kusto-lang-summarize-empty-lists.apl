// Kusto: summarize, default values over an empty input: make_set and make_list are [] (one row).
// Column names follow Axiom (make_set_x, make_list_x; Kusto: set_x, list_x).
// https://learn.microsoft.com/kusto/query/summarize-operator
datatable(x:long)[]
| summarize  make_set(x), make_list(x)
