// expect: generated names never replace a column: extend's a * 10 and strlen(b) are Column1, Column2, the next extend's a + 1 is Column3; every column survives (source: https://learn.microsoft.com/kusto/query/extend-operator "If ColumnName is omitted, the output column name of Expression is automatically generated"; only names noted by extend replace a column)
datatable(a:long, b:string)[1, "x"]
| extend a * 10, strlen(b)
| extend a + 1
