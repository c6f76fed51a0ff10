// Kusto: summarize, "The standard count function includes null values in its count" (count_y 2).
// Column names follow Axiom (count_; Kusto: count_y).
// https://learn.microsoft.com/kusto/query/summarize-operator
range x from 1 to 2 step 1
| extend y = iff(x == 1, real(null), real(5))
| summarize count(y)
