// Kusto: range, "Combine different stop times" (two let ranges of days in a union, sorted: 2024-01-01 to
// 2024-01-10, ten days; the page shows the last seven).
// https://learn.microsoft.com/kusto/query/range-operator
let Range1 = range Time from datetime(2024-01-01) to datetime(2024-01-05) step 1d;
let Range2 = range Time from datetime(2024-01-06) to datetime(2024-01-10) step 1d;
union Range1, Range2
| order by Time asc
