// Kusto: toscalar(): "If the result is a tabular, then the first column and first row is taken"; the
// first row's value is null here, so the scalar is null (not the next row's 5).
// https://learn.microsoft.com/kusto/query/toscalar-function
let v = toscalar(datatable(a:long, b:string) [long(null), "x", 5, "y"]);
print r = v
