// Kusto: union, "Using isfuzzy=true" with views (View_3 does not exist and is skipped): Count 2.
// https://learn.microsoft.com/kusto/query/union-operator
let View_1 = view () { print x=1 };
let View_2 = view () { print x=1 };
let OtherView_1 = view () { print x=1 };
union isfuzzy=true
(View_1 | where x > 0), 
(View_2 | where x > 0),
(View_3 | where x > 0)
| count 
