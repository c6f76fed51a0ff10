// Kusto: innerunique join, "Use the default innerunique join" without kind: Axiom documents inner as
// the default (Kusto: innerunique), and Axiom wins (docs/apl.md §5): every matching pair, b 3 b 10 too.
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
X | join Y on Key
