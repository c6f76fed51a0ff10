// Kusto: summarize, default values over an empty input: count, countif, dcount, dcountif are 0.
// Column names follow Axiom (count_, countif_; Kusto: count_x, countif_).
// https://learn.microsoft.com/kusto/query/summarize-operator
datatable(x:long)[]
| summarize  count(x), countif(x > 0) , dcount(x), dcountif(x, x > 0)
