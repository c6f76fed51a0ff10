// expect: a scalar function whose body's tabular let reads ds: the events with method == "GET" (case-sensitive: rows at 00:10, 00:50, 02:00, 03:45; "get" at 01:05 is not one) count 4, so n = 4 (source: https://learn.microsoft.com/kusto/query/functions/user-defined-functions ; https://learn.microsoft.com/kusto/query/let-statement)
let f = () { let T = ds | where method == "GET" | count; toscalar(T) };
print n = f()
