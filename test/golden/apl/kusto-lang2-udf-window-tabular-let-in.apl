// expect: a tabular let used by "in" next to row_number in a scalar function: row_number over x = 1..4 is 1..4 (the row_number page), kept where x is in the let (1 and 3), -1 elsewhere: c = 1, -1, 3, -1; a let built on another let (Big = Odd | where y > 2) keeps only 3: e = -1, -1, 3, -1 (source: https://learn.microsoft.com/kusto/query/row-number-function ; https://learn.microsoft.com/kusto/query/functions/user-defined-functions)
let g = (a: long) { let Odd = datatable(y: long)[1, 3, 5]; iff(a in (Odd), row_number(), -1) };
let h = (a: long) { let Odd = datatable(y: long)[1, 3, 5]; let Big = Odd | where y > 2; iff(a in (Big), row_number(), -1) };
range x from 1 to 4 step 1
| extend c = g(x), e = h(x)
