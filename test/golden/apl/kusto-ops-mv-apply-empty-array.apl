// Kusto: mv-apply runs its subquery on each row's subtable, and mv-expand's "Returns" says an empty
// array gives no record, so row 2's subtable is empty. The summarize page: without a group-by, an
// empty input still gives one row, with count() and sum() 0 and make_list() an empty array.
// https://learn.microsoft.com/kusto/query/mv-apply-operator
// https://learn.microsoft.com/kusto/query/mv-expand-operator
// https://learn.microsoft.com/kusto/query/summarize-operator
datatable (id: int, xs: dynamic)
[
    1, dynamic([1, 2, 3]),
    2, dynamic([])
]
| mv-apply x = xs to typeof(long) on (summarize n = count(), total = sum(x), l = make_list(x))
| project id, n, total, l
