// Kusto: row_rank_dense(), first example (dense rank by Departures).
// https://learn.microsoft.com/kusto/query/row-rank-dense-function
datatable (Airport:string, Airline:string, Departures:long)
[
  "SEA", "LH", 3,
  "SEA", "LY", 100,
  "SEA", "UA", 3,
  "SEA", "BA", 2,
  "SEA", "EL", 3
]
| sort by Departures asc
| extend Rank=row_rank_dense(Departures)
