// Kusto: let statement, "Create a user defined function with scalar calculation" (MultiplyByN: result
// 5, 10, 15, 20, 25).
// https://learn.microsoft.com/kusto/query/let-statement
let MultiplyByN = (val:long, n:long) { val * n };
range x from 1 to 5 step 1 
| extend result = MultiplyByN(x, 5)
