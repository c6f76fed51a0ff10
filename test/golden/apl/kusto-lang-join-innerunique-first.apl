// Kusto: innerunique join, "Two possible outputs from innerunique join": either left row may be kept;
// Quarry keeps the first (1 val1.1 with val1.3 and val1.4), one of the two documented outputs.
// https://learn.microsoft.com/kusto/query/join-innerunique
let t1 = datatable(key: long, value: string)  
    [
    1, "val1.1",  
    1, "val1.2"  
];
let t2 = datatable(key: long, value: string)  
    [  
    1, "val1.3",
    1, "val1.4"  
];
t1
| join kind = innerunique
    t2
    on key
