// expect: series_pow([1,2,3,4], [1,2,3,0.5]) is [1.0,4.0,27.0,2.0] (source: https://learn.microsoft.com/kusto/query/series-pow-function)
print x = dynamic([1, 2, 3, 4]), y=dynamic([1, 2, 3, 0.5])
| extend x_pow_y = series_pow(x, y)
