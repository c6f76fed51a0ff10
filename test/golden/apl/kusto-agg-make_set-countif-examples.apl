// expect: Val_set [1,5,7] (the page's order is "undefined", sorted here); countif(strlen(name) > 4) -> 2 (the page's array-column example is kusto-agg-make_set-array-column.apl) (source: https://learn.microsoft.com/kusto/query/make-set-aggregation-function, https://learn.microsoft.com/kusto/query/countif-aggregation-function, the pages' examples)
let T = datatable(name:string, day_of_birth:long)
[
   "John", 9,
   "Paul", 18,
   "George", 25,
   "Ringo", 7
];
let sets = datatable (Val: int)
[
    1,
    5,
    7,
    5
]
| summarize Val_set=make_set(Val)
| project Val_set = array_sort_asc(Val_set);
sets | extend countif_ = toscalar(T | summarize countif(strlen(name) > 4))
