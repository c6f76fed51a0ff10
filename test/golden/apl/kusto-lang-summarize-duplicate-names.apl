// Kusto: summarize, the same aggregate twice gets a number (Axiom names make_set_y, make_set_y1; Kusto
// set_y, set_y1), both [5.0].
// https://learn.microsoft.com/kusto/query/summarize-operator
range x from 1 to 2 step 1
| extend y = iff(x == 1, real(null), real(5))
| summarize make_set(y), make_set(y)
