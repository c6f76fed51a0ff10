// Kusto: user-defined functions, "Tabular function without arguments" (called without parentheses).
// https://learn.microsoft.com/kusto/query/functions/user-defined-functions
let tenNumbers = () { range x from 1 to 10 step 1};
tenNumbers
| extend x_plus_7 = x + 7
