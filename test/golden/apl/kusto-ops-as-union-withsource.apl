// expect: 20 rows, x 1..10 with TableName T1 and 1..10 with T2 (source: https://learn.microsoft.com/kusto/query/as-operator "the union's generated TableName column will consist of 'T1' and 'T2'")
range x from 1 to 10 step 1
| as T1
| union withsource=TableName (range x from 1 to 10 step 1 | as T2)
| summarize rows = count(), min_x = min(x), max_x = max(x) by TableName
| sort by TableName asc
