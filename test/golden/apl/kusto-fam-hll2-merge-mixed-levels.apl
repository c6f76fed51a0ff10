// expect: Kusto's page says hll values made with different accuracy values cannot be merged; Quarry merges
// them at the coarser level (docs/apl.md): 1..10 at level 0 and 6..15 at level 4 hold 15 distinct values,
// in the aggregate hll_merge and the scalar one (source: https://learn.microsoft.com/kusto/query/hll-merge-aggregation-function)
range x from 1 to 10 step 1
| summarize h = hll(x, 0)
| union (range x from 6 to 15 step 1 | summarize h = hll(x, 4))
| summarize m = hll_merge(h), a = take_any(h)
| project agg = dcount_hll(m), scalar = dcount_hll(hll_merge(m, a))
