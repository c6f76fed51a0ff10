// Kusto: let statement, "Define scalar values" (`let ['some number'] = 20;`, y: 0, 5, 10, 15, 20).
// https://learn.microsoft.com/kusto/query/let-statement
let ['some number'] = 20;
range y from 0 to ['some number'] step 5
