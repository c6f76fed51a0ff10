// Kusto: union, "Using isfuzzy=true and wildcard access" (views View_1, View_2, OtherView_1 match;
// SomeView* matches nothing): Count 3.
// https://learn.microsoft.com/kusto/query/union-operator
let View_1 = view () { print x=1 };
let View_2 = view () { print x=1 };
let OtherView_1 = view () { print x=1 };
union isfuzzy=true View*, SomeView*, OtherView*
| count 
