// expect: hll_if counts only rows where the predicate holds: 2 distinct users with ok=true per side
// (source: https://learn.microsoft.com/kusto/query/hll-if-aggregation-function)
datatable(side:string, user:string, ok:bool)
[
    "l", "a", true, "l", "b", true, "l", "c", false, "l", "a", true,
    "r", "x", false, "r", "y", true, "r", "z", true
]
| summarize h = hll_if(user, ok, 2) by side
| project side, n = dcount_hll(h)
| order by side asc
