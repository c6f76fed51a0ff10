// Kusto: invoke operator (`T | invoke function(...)`: the rows left of invoke are the function's first
// tabular argument) after a leading search, as in the let statement page's view example: the rows with
// MyColumn == 5 of the views Range10 and Range20 (one each), counted by the invoked function: 2.
// https://learn.microsoft.com/kusto/query/invoke-operator
let Range10 = view () { range MyColumn from 1 to 10 step 1 };
let Range20 = view () { range MyColumn from 1 to 20 step 1 };
let CountRows = (T:(*)) { T | count };
search MyColumn == 5
| invoke CountRows()
