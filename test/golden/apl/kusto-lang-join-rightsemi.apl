// Kusto: rightsemi join, the example (right rows with a match: b 10; c 20; c 30).
// https://learn.microsoft.com/kusto/query/join-rightsemi
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
X | join kind=rightsemi Y on Key
