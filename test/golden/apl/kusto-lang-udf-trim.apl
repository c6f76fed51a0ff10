// Kusto: let statement, "Create a user defined function that trims input".
// https://learn.microsoft.com/kusto/query/let-statement
let TrimOnes = (s:string) { trim("1", s) };
range x from 10 to 15 step 1
| extend result = TrimOnes(tostring(x))
