// Kusto: row_cumsum(), first example (cumulative sum of the first even integers).
// https://learn.microsoft.com/kusto/query/row-cumsum-function
datatable (a:long) [
    1, 2, 3, 4, 5, 6, 7, 8, 9, 10
]
| where a%2==0
| serialize cs=row_cumsum(a)
