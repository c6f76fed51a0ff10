// expect: a|Column3|b|Column4|Column1|Column2 = 1|2|x|x|10|1: the generated names skip the columns the project names (source: https://learn.microsoft.com/kusto/query/project-operator "If ColumnName is omitted, the output column name of Expression will be automatically generated")
datatable(a:long, b:string)[1, "x"]
| extend a * 10, strlen(b)
| project a, a + 1, b, tolower(b), Column1, Column2
