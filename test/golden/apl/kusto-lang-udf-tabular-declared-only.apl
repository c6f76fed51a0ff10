// Kusto: user-defined functions, MyFilter example (`T:(x:long)`, rows with x >= 9: 9 and 10), given a
// table with a second column: the body sees x only and Quarry narrows the argument to it (docs/apl.md
// §8), so the result has the column x alone.
// https://learn.microsoft.com/kusto/query/functions/user-defined-functions
let MyFilter = (T:(x:long), v:long) {
  T | where x >= v
};
MyFilter((range x from 1 to 10 step 1 | extend y = x * 2), 9)
