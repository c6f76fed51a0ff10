// Kusto: row_cumsum page, second example (the running salary restarts per name: totals 1000, 3000, 4400,
// 1000, 2950, 4400), the window calls inside user-defined functions called with named arguments in
// another order (user-defined functions, "Default values": callers "must name their arguments"), one of
// them defined inside the other's body.
// https://learn.microsoft.com/kusto/query/row-cumsum-function
let Running = (term: long, key: string = "") {
  let Restart = (k: string) { k != prev(k) };
  row_cumsum(term, Restart(k = key))
};
datatable (name:string, month:int, salary:long)
[
    "Alice", 1, 1000,
    "Bob",   1, 1000,
    "Alice", 2, 2000,
    "Bob",   2, 1950,
    "Alice", 3, 1400,
    "Bob",   3, 1450,
]
| order by name asc, month asc
| extend total=Running(key = name, term = salary)
