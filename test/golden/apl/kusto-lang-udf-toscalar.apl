// Kusto: user-defined functions, "Restrictions", example 1 (supported): toscalar over a let table in
// a scalar function called with a constant: d = 1970-01-01 - 10h = 1969-12-31T14:00:00Z.
// https://learn.microsoft.com/kusto/query/functions/user-defined-functions
let Table1 = datatable(xdate:datetime)[datetime(1970-01-01)];
let Table2 = datatable(Column:long)[1235];
let f = (hours:long) { toscalar(Table1 | summarize min(xdate) - hours*1h) };
Table2 | where Column != 123 | project d = f(10)
