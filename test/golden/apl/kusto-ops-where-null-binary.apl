// expect: 5|15|50 and null|null|null (columns val, Add, Multiply) (source: https://learn.microsoft.com/kusto/query/scalar-data-types/null-values "Null values and binary operators")
datatable(val:int)[5, int(null)]
| extend Add = val + 10
| extend Multiply = val * 10
