// Kusto: user-defined functions, tabular parameters: with `T:(x:long)` only x can be referenced in the
// body; the argument's other columns are hidden, so `y` is an unknown column (400) although the
// argument has it. (`T:(*)` shows every column: kusto-lang-udf-tabular-wildcard.)
// https://learn.microsoft.com/kusto/query/functions/user-defined-functions
let F = (T:(x:long)) { T | project y };
F(datatable (x:long, y:long) [1, 2])
