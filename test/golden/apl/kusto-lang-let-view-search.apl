// Kusto: let statement, "Create a view or virtual table": a leading search looks in views too
// ($table Range10 and Range20, MyColumn 5). Quarry searches the datasets as well (none has MyColumn).
// https://learn.microsoft.com/kusto/query/let-statement
let Range10 = view () { range MyColumn from 1 to 10 step 1 };
let Range20 = view () { range MyColumn from 1 to 20 step 1 };
search MyColumn == 5
| project ['$table'], MyColumn
