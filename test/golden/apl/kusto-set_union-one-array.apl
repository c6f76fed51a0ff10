// expect: set_union(Arr1, Arr1) -> ["A4","A2","A7"] and ["C4","C7","C1"] (first-seen order) (source: https://learn.microsoft.com/kusto/query/set-union-function, the page's second example)
datatable (Arr1: dynamic)
[
    dynamic(['A4', 'A2', 'A7', 'A2']),
    dynamic(['C4', 'C7', 'C1', 'C4'])
]
| extend Out=set_union(Arr1, Arr1)
