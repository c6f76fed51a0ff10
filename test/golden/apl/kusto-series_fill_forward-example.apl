// expect: [null,null,36,41,41,41,16,61,33,33,33] (source: https://learn.microsoft.com/kusto/query/series-fill-forward-function, the page's example)
let data = datatable(arr: dynamic)
    [
    dynamic([null, null, 36, 41, null, null, 16, 61, 33, null, null])
];
data
| project
    arr,
    fill_forward = series_fill_forward(arr)
