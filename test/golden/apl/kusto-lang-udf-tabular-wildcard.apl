// Kusto: user-defined functions, "A tabular function that uses a tabular input with no column specified"
// (output x: 1, 2, 3).
// https://learn.microsoft.com/kusto/query/functions/user-defined-functions
let MyDistinct = (T:(*)) {
  T | distinct *
};
MyDistinct((range x from 1 to 3 step 1))
| sort by x asc
