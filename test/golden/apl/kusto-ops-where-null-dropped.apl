// expect: one row null|b (a null predicate drops the row; null != 5 is true) (source: https://learn.microsoft.com/kusto/query/scalar-data-types/null-values "Null values and the where operator")
datatable(ival:int, sval:string)[5, "a", int(null), "b"]
| where ival != 5
