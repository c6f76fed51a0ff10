// Kusto: user-defined functions, "Restrictions" (toscalar in a function called with constants is
// supported): each call binds its own argument, so g(2) counts y of 1..5 above 2 (3) and g(4) above 4 (1).
// https://learn.microsoft.com/kusto/query/functions/user-defined-functions
let g = (a:long) { toscalar(range y from 1 to 5 step 1 | where y > a | count) };
print two = g(2), four = g(4)
