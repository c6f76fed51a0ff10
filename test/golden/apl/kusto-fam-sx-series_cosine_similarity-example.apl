// expect: 0.99935343825504 and 0.923760430703401 (the page prints 15 significant digits) (source: https://learn.microsoft.com/kusto/query/series-cosine-similarity-function)
datatable(s1:dynamic, s2:dynamic)
[
    dynamic([0.1,0.2,0.1,0.2]), dynamic([0.11,0.2,0.11,0.21]),
    dynamic([0.1,0.2,0.1,0.2]), dynamic([1,2,3,4]),
]
| extend cosine_similarity=series_cosine_similarity(s1, s2)
