// expect: a type after a listed column casts its output (Id as string); a column no table has but given a type is all null (source: https://learn.microsoft.com/kusto/query/find-operator "When specifying a ColumnType with a ColumnName, this column in the result will have the given type, and the values will be cast to that type if needed"; "If a source table doesn't contain a certain column, the values in the corresponding rows will be null")
let A = datatable(Id: long, Name: string)[1, "x", 2, "y"];
let B = datatable(Id: long, Kind: string)[3, "z"];
find in (A, B) where Id >= 2 project Id: string, Kind, Missing: real
| order by Id asc
