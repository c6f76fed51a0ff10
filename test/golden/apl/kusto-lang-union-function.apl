// Kusto: user-defined functions, "Invoking a user-defined function": a tabular function without
// arguments named by union both ways, `union T, (T())` (two rows; here of x = 1).
// https://learn.microsoft.com/kusto/query/functions/user-defined-functions
let T=(){
  print x = 1
};
union T, (T())
