// expect: rank_of_685 685 — in a sorted list 1..1000 the rank of 685 is its index (source: https://learn.microsoft.com/kusto/query/rank-tdigest-function)
range x from 1 to 1000 step 1
| summarize t_x=tdigest(x)
| project rank_of_685=rank_tdigest(t_x, 685)
