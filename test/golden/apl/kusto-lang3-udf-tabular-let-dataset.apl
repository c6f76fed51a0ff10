// expect: a tabular function whose body's own tabular let reads dataset ds: T = ds | count is one row of 8 (Quarry names the column count, docs/apl.md) (all 8 events of ds are in the window); T names the body's let, not a dataset (source: https://learn.microsoft.com/kusto/query/functions/user-defined-functions ; https://learn.microsoft.com/kusto/query/let-statement)
let f = () { let T = ds | count; T };
f()
