// Kusto: mv-expand, "Using with_itemindex" (x 1..4 with Index 0..3).
// https://learn.microsoft.com/kusto/query/mv-expand-operator
range x from 1 to 4 step 1
| summarize x = make_list(x)
| mv-expand with_itemindex=Index x
