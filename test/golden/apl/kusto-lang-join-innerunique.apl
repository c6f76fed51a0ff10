// Kusto: innerunique join, "Use the default innerunique join" with kind=innerunique written out (left
// deduplicated by key, first row kept: b 2 b 10; c 4 c 20; c 4 c 30).
// https://learn.microsoft.com/kusto/query/join-innerunique
let X = datatable(Key:string, Value1:long)
[
    'a',1,
    'b',2,
    'b',3,
    'c',4
];
let Y = datatable(Key:string, Value2:long)
[
    'b',10,
    'c',20,
    'c',30,
    'd',40
];
X | join kind=innerunique Y on Key
