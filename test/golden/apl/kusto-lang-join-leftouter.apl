// Kusto: leftouter join, the example (a 1 - -; b 2 b 10; b 3 b 10; c 4 c 20; c 4 c 30).
// https://learn.microsoft.com/kusto/query/join-leftouter
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
X | join kind=leftouter Y on Key
