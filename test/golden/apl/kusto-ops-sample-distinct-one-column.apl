// expect: a single column, the requested one (source: https://learn.microsoft.com/kusto/query/sample-distinct-operator "Returns a single column")
datatable(EpisodeId: long, x: long) [1, 10, 1, 11, 2, 12]
| sample-distinct 10 of EpisodeId
| getschema
| project ColumnName
