// expect: dict {"prop01":"val_a","prop03":"val_c"} (source: https://learn.microsoft.com/kusto/query/make-bag-if-aggregation-function)
let T = datatable(prop:string, value:string, predicate:bool)
[
    "prop01", "val_a", true,
    "prop02", "val_b", false,
    "prop03", "val_c", true
];
T
| extend p = bag_pack(prop, value)
| summarize dict=make_bag_if(p, predicate)
