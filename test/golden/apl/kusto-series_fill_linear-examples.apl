// expect: the page's real-valued row: without_args and with_edges [111,111,73.5,36,41,32.667,24.333,16,61,33,33,33], wo_edges [null,111,73.5,36,41,32.667,24.333,16,61,33,null,null] (values rounded to 3 decimals as the page prints them); an all-null series -> [0,0,0,0] for every form but with_const -> [3.14159 x4]. The page's integer row (truncated values) is kusto-series_fill_linear-long.apl (source: https://learn.microsoft.com/kusto/query/series-fill-linear-function, the page's example)
// the page prints the reals to 3 decimals: r3 rounds every element the same way (with_const is left as computed: its all-null row holds 3.14159)
let r3 = (x: dynamic) { series_divide(series_floor(series_add(series_multiply(x, 1000), 0.5)), 1000) };
let data = datatable(arr: dynamic)
    [
    dynamic([null, 111.0, null, 36.0, 41.0, null, null, 16.0, 61.0, 33.0, null, null]),
    dynamic([null, null, null, null])
];
data
| project
    without_args = series_fill_linear(arr),
    with_edges = series_fill_linear(arr, double(null), true),
    wo_edges = series_fill_linear(arr, double(null), false),
    with_const = series_fill_linear(arr, double(null), true, 3.14159)
| project without_args = r3(without_args), with_edges = r3(with_edges), wo_edges = r3(wo_edges), with_const
