// Kusto: arg_max() null handling (arg-max-aggregation-function page): a group whose expression is null in
// every row answers its first row. GET rows all have a null d -> the first GET row (00:10); the others
// their largest d. https://learn.microsoft.com/kusto/query/arg-max-aggregation-function
ds | extend d = iff(method == "GET", real(null), dur) | summarize arg_max(d, _time) by method | sort by method asc
