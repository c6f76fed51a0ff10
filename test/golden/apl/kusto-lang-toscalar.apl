// Kusto: toscalar(), "Set range for evaluation" example.
// https://learn.microsoft.com/kusto/query/toscalar-function
let Start = toscalar(print x=1);
let End = toscalar(range x from 1 to 9 step 1 | count);
let Step = toscalar(2);
range z from Start to End step Step | extend start=Start, end=End, step=Step
