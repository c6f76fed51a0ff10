// Kusto: user-defined functions, "Invoking a user-defined function": a function without arguments is
// called by its name or with (): y and z are both x * 123.
// https://learn.microsoft.com/kusto/query/functions/user-defined-functions
let a=(){123};
range x from 1 to 3 step 1
| extend y = x * a, z = x * a()
