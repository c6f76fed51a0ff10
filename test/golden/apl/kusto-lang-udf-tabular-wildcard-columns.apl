// Kusto: user-defined functions, `T:(*)`: "Any table can be passed to a function". Quarry lets the body
// reference the argument's columns (Kusto's page says none can be; docs/apl.md §8): y of the one row, 2.
// https://learn.microsoft.com/kusto/query/functions/user-defined-functions
let F = (T:(*)) { T | project y };
F(datatable (x:long, y:long) [1, 2])
