// expect: one column of up to N distinct values of the column (source: https://learn.microsoft.com/kusto/query/sample-distinct-operator "Returns a single column that contains up to the specified number of distinct values"); checked by shape: 3 rows, 3 distinct values, all from the input
datatable(EpisodeId: long, x: long) [1, 10, 1, 11, 2, 12, 3, 13, 3, 14, 4, 15, 5, 16]
| sample-distinct 3 of EpisodeId
| summarize rows = count(), values = dcount(EpisodeId), known = countif(EpisodeId between (1 .. 5))
