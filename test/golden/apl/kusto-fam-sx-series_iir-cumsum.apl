// expect: numerators [1], denominators [1,-1] give the cumulative sum: rows (1,1), (2,3), (3,6), (4,10) (the page lists the first four of the ten rows; take 4 added) (source: https://learn.microsoft.com/kusto/query/series-iir-function)
let x = range(1.0, 10, 1);
print x=x, y = series_iir(x, dynamic([1]), dynamic([1,-1]))
| mv-expand x, y
| take 4
