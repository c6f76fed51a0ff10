// Quarry has no NaN apart from null (text ""), so NaN sorts and prints as a null; ±inf print as null in JSON.
// Kusto: sort, "Using special floating-point values", ascending nulls first: null, NaN, -inf, -5, 0, 5, +inf
// (null and NaN always together).
// https://learn.microsoft.com/kusto/query/sort-operator
datatable(v:real)[real(null), real(nan), real(-inf), -5.0, 0.0, 5.0, real(+inf)]
| sort by v asc nulls first
| extend text = tostring(v)
