// Kusto: window functions (row_cumsum, prev pages) called inside scalar user-defined functions: the
// function is expanded where it is called, so s is the running sum (1, 3, 6) and p the previous x
// (null, 1, 2), as `extend s = row_cumsum(x), p = prev(x)` gives.
// https://learn.microsoft.com/kusto/query/row-cumsum-function
let RunningSum = (a:long) { row_cumsum(a) };
let Previous = (a:long) { prev(a) };
range x from 1 to 3 step 1
| extend s = RunningSum(x), p = Previous(x)
