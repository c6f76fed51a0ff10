// Kusto: serialize operator: take keeps the serialization, so it takes the first serialized rows.
// https://learn.microsoft.com/kusto/query/serialize-operator
ds | where status != "200" | serialize | extend nxt = next(status, 1, "none") | take 2 | project status, nxt
