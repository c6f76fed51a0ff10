// Kusto: user-defined functions, "A tabular function taking both a tabular input and a scalar input"
// (output x: 9, 10).
// https://learn.microsoft.com/kusto/query/functions/user-defined-functions
let MyFilter = (T:(x:long), v:long) {
  T | where x >= v
};
MyFilter((range x from 1 to 10 step 1), 9)
