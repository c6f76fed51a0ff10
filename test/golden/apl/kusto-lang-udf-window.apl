// Kusto: window functions (row_cumsum page) inside a user-defined function body: a tabular function
// serializes its argument and adds the running sum (1, 3, 6).
// https://learn.microsoft.com/kusto/query/row-cumsum-function
let Running = (T:(x:long)) { T | serialize | extend s = row_cumsum(x) };
Running((range x from 1 to 3 step 1))
