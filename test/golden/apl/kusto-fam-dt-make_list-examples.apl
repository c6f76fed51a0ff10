// expect: mylist of the nine names in input order; by isEvenSideCount: false ["triangle","pentagon","heptagon","nonagon"], true ["square","rectangle","hexagon","octagon","decagon"]; the packed-bag lists in the same orders with name and sideCount (source: https://learn.microsoft.com/kusto/query/make-list-aggregation-function)
let shapes = datatable (name: string, sideCount: int)
[
    "triangle", 3,
    "square", 4,
    "rectangle", 4,
    "pentagon", 5,
    "hexagon", 6,
    "heptagon", 7,
    "octagon", 8,
    "nonagon", 9,
    "decagon", 10
];
let all = toscalar(shapes | summarize mylist = make_list(name));
shapes
| extend d = bag_pack("name", name, "sideCount", sideCount)
| summarize mylist = make_list(name), bags = make_list(d) by isEvenSideCount = sideCount % 2 == 0
| extend all = all
| order by isEvenSideCount asc
