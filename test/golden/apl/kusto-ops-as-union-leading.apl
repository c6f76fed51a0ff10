// expect: TableName T1 and T2, ten rows each (source: https://learn.microsoft.com/kusto/query/as-operator, the same example written as a leading union)
union withsource=TableName (range x from 1 to 10 step 1 | as T1), (range x from 1 to 10 step 1 | as T2)
| summarize rows = count() by TableName
| sort by TableName asc
