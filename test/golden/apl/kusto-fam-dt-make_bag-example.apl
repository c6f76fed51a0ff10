// expect: dict {"prop01":"val_a","prop02":"val_b","prop03":"val_c"} (the page's bag_unpack example needs evaluate: skipped) (source: https://learn.microsoft.com/kusto/query/make-bag-aggregation-function)
let T = datatable(prop:string, value:string)
[
    "prop01", "val_a",
    "prop02", "val_b",
    "prop03", "val_c",
];
T
| extend p = bag_pack(prop, value)
| summarize dict=make_bag(p)
