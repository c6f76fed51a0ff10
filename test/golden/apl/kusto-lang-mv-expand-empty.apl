// Kusto: mv-expand, "Returns": a null dynamic value gives a single record (null); an empty array or
// property bag gives no record; several expanded columns give the most records any of them gives,
// missing values null. (Rows 2 and 4 disappear; row 5's empty `b` is padded next to `c`'s two.)
// https://learn.microsoft.com/kusto/query/mv-expand-operator
datatable (a: int, b: dynamic, c: dynamic)
[
    1, dynamic([10, 20]), dynamic([]),
    2, dynamic([]), dynamic([]),
    3, dynamic(null), dynamic([]),
    4, dynamic({}), dynamic({}),
    5, dynamic([]), dynamic(['x', 'y'])
]
| mv-expand b, c
