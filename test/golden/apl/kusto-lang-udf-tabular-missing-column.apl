// Kusto: let statement, tabular parameters: "If columns are specified, then the input tabular argument
// must contain these columns": a table without x is an error (400).
let MyFilter = (T:(x:long), v:long) { T | where x >= v };
MyFilter((range y from 1 to 10 step 1), 9)
