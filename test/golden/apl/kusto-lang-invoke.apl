// Kusto: user-defined functions, "Invoking a user-defined function" (invoke: the table left of invoke is
// the first tabular argument): each a gets " :-)" appended ("sad :-)", "really :-)", "sad :-)").
// https://learn.microsoft.com/kusto/query/functions/user-defined-functions
let append_to_column_a=(T:(a:string), what:string) {
    T | extend a=strcat(a, " ", what)
};
datatable (a:string) ["sad", "really", "sad"]
| invoke append_to_column_a(":-)")
