// Kusto: let statement, "Tabular argument with wildcard" (`StormEvents | invoke CountRecordsInTable()`),
// here over dataset ds passed as an argument (`f(ds)`) and through invoke: both count every row of ds
// in the window (the same number twice).
// https://learn.microsoft.com/kusto/query/let-statement
let CountRecordsInTable = (T:(*)) { T | count };
union (CountRecordsInTable(ds)), (ds | invoke CountRecordsInTable())
