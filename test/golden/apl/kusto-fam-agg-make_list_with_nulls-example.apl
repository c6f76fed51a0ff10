// expect: mylist [null,4,4,5,6,7,8,9,10] (source: https://learn.microsoft.com/kusto/query/make-list-with-nulls-aggregation-function)
let shapes = datatable (name:string , sideCount: int)
[
    "triangle", int(null),
    "square", 4,
    "rectangle", 4,
    "pentagon", 5,
    "hexagon", 6,
    "heptagon", 7,
    "octagon", 8,
    "nonagon", 9,
    "decagon", 10
];
shapes
| summarize mylist = make_list_with_nulls(sideCount)
