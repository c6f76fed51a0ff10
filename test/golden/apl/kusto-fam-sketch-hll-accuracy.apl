// expect: error — hll's accuracy is one of Kusto's levels 0 to 4 (source: https://learn.microsoft.com/kusto/query/hll-aggregation-function, "Estimation accuracy")
ds | summarize hll(method, 7)
