// Kusto: union without isfuzzy fails when a leg names nothing (View_3): a 404 like an unknown dataset.
// https://learn.microsoft.com/kusto/query/union-operator
let View_1 = view () { print x=1 };
union View_1, View_3
| count
