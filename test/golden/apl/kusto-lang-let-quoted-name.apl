// Kusto: let statement, a name bound with the ['name'] notation.
// https://learn.microsoft.com/kusto/query/let-statement
let ['some number'] = 20;
range y from 0 to ['some number'] step 5
