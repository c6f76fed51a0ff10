// expect: one row A1=1, A2=2 (source: https://learn.microsoft.com/kusto/query/project-keep-operator)
datatable(A1:long, A2:long, B:long) [1, 2, 3]
| project-keep A*    // Keeps only columns A1 and A2 in the output
