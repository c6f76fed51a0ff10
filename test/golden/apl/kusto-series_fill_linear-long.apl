// expect: the page's integer row: without_args and with_edges [111,111,73,36,41,32,24,16,61,33,33,33], wo_edges [null,111,73,36,41,32,24,16,61,33,null,null] (the page: a series of int or long elements gets "rounded interpolated values", shown truncated: 73.5 -> 73, 32.667 -> 32, 24.333 -> 24); with_const is left out: the page prints [111,111,74,38,41,...] for it, which changes known elements (36 -> 38) and no fill rule gives (source: https://learn.microsoft.com/kusto/query/series-fill-linear-function, the page's example)
let data = datatable(arr: dynamic)
    [
    dynamic([null, 111, null, 36, 41, null, null, 16, 61, 33, null, null])
];
data
| project
    arr,
    without_args = series_fill_linear(arr),
    with_edges = series_fill_linear(arr, double(null), true),
    wo_edges = series_fill_linear(arr, double(null), false)
