// Kusto: user-defined functions, "View functions": only the view is resolved by the wildcard in
// union (output x = 1).
// https://learn.microsoft.com/kusto/query/functions/user-defined-functions
let T_view = view () { print x=1 };
let T_notview = () { print x=2 };
union T*
