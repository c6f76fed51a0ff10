// expect: 2, 1, 3, 1, null: non-null values take precedence (source: https://learn.microsoft.com/kusto/query/min-of-function, the datatable example; the page heads the column 'result')
datatable (A: int, B: int)
[
    5, 2,
    10, 1,
    int(null), 3,
    1, int(null),
    int(null), int(null)
]
| project min_of(A, B)
