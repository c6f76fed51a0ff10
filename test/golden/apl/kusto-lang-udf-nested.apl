// Kusto: let statement, "Use multiple let statements" (foo2 calls the tabular function foo1).
// https://learn.microsoft.com/kusto/query/let-statement (the page titles the count column "result";
// Quarry names it count, as count does everywhere)
let foo1 = (_start:long, _end:long, _step:long) { range x from _start to _end step _step};
let foo2 = (_step:long) { foo1(1, 100, _step)};
foo2(2) | count
