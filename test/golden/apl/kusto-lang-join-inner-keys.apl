// Kusto: inner join example: both key columns are kept, the right one renamed Key1.
// https://learn.microsoft.com/kusto/query/join-inner (Kusto lists (b,3) before (b,2); the order of a join's
// rows is not defined, so the rows are sorted here)
let X = datatable(Key:string, Value1:long)
[
    'a',1,
    'b',2,
    'b',3,
    'k',5,
    'c',4
];
let Y = datatable(Key:string, Value2:long)
[
    'b',10,
    'c',20,
    'c',30,
    'd',40,
    'k',50
];
X | join kind=inner Y on Key
| sort by Key asc, Value1 asc, Value2 asc
