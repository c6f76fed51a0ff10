// expect: make-series count() makes a long series, so series_fill_linear truncates: counts [3,null,null,1] by hour fill [3,2,1,1] (3 + (1-3)*1/3 = 2.333 -> 2, 3 + (1-3)*2/3 = 1.667 -> 1); avg() makes a real series: [2,null,null,1] fills [2,1.667,1.333,1] shown to 3 decimals (series_fill_linear's page: "If series contains only int or long elements, then the linear interpolation returns rounded interpolated values", its example truncating; make-series' page: count() is long) (source: https://learn.microsoft.com/kusto/query/series-fill-linear-function)
let r3 = (x: dynamic) { series_divide(series_floor(series_add(series_multiply(x, 1000), 0.5)), 1000) };
datatable(t: datetime, v: long)
    [
    datetime(2024-01-01 00:10), 1,
    datetime(2024-01-01 00:20), 2,
    datetime(2024-01-01 00:30), 3,
    datetime(2024-01-01 03:05), 1
]
| make-series c = count() default = long(null), a = avg(v) default = real(null) on t from datetime(2024-01-01) to datetime(2024-01-01 04:00) step 1h
| project c, filled = series_fill_linear(c), a, a_filled = r3(series_fill_linear(a))
