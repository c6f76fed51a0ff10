// Kusto: user-defined functions, "Restrictions", example 1 (not supported): toscalar in a function
// called with a value of the calling row, f(Column), is an error (400).
// https://learn.microsoft.com/kusto/query/functions/user-defined-functions
let Table1 = datatable(xdate:datetime)[datetime(1970-01-01)];
let Table2 = datatable(Column:long)[1235];
let f = (hours:long) { toscalar(Table1 | summarize min(xdate) - hours*1h) };
Table2 | where Column != 123 | project d = f(Column)
