// Kusto: serialize operator, "Add row number to the serialized table", over a dataset: Quarry serializes
// a dataset in the order its rows are read (here the order they were ingested) and the result keeps that
// order (no newest-first reordering after serialize). https://learn.microsoft.com/kusto/query/serialize-operator
ds | where status != "200" | serialize rn = row_number() | project _time, status, rn
