// expect: 6, 8, 2, 1, null: non-null values take precedence (source: https://learn.microsoft.com/kusto/query/max-of-function, the page's datatable example; the page heads the column 'result')
datatable (A: int, B: int)
[
    1, 6,
    8, 1,
    int(null), 2,
    1, int(null),
    int(null), int(null)
]
| project max_of(A, B)
