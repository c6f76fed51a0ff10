// Kusto: summarize, "The avg aggregate sums only the non-null values" (sum_y 15, avg_y 5).
// https://learn.microsoft.com/kusto/query/summarize-operator
range x from 1 to 4 step 1
| extend y = iff(x == 1, real(null), real(5))
| summarize sum(y), avg(y)
