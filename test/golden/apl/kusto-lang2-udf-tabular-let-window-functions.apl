// expect: window functions in a tabular function body after a tabular let: sorted x = 1, 2, 3 gives prev = null, 1, 2; next = 2, 3, null; row_cumsum = 1, 3, 6; row_number = 1, 2, 3 (source: https://learn.microsoft.com/kusto/query/prev-function ; https://learn.microsoft.com/kusto/query/next-function ; https://learn.microsoft.com/kusto/query/row-cumsum-function)
let f = (T: (x: long)) { let U = T | sort by x asc; U | extend p = prev(x), n = next(x), c = row_cumsum(x), r = row_number() };
f(datatable(x: long)[3, 1, 2])
