// Kusto: materialize() page ("Use materialize when you have join/union where their operands has mutual
// sub-queries that can be executed once"): a summarize materialized and joined with itself, computed
// once. Counts per method in the window (hand-counted from events.ndjson): DELETE 1, GET 4, POST 1,
// PUT 1, get 1; each row meets itself, so n and n1 are equal.
// https://learn.microsoft.com/kusto/query/materialize-function
let perMethod = materialize(ds | summarize n = count() by method);
perMethod
| join kind=inner (perMethod) on method
| project method, n, n1
| sort by method asc
