// Kusto: let statement: a let bound to a tabular expression, used twice, and lets referring to earlier
// lets ("let end_time = start_time + 2h"): x of 1..10 between lo and hi (3..5), counted twice = 6.
// https://learn.microsoft.com/kusto/query/let-statement
let lo = 3;
let hi = lo + 2;
let T = range x from 1 to 10 step 1 | where x between (lo .. hi);
union T, T
| count
