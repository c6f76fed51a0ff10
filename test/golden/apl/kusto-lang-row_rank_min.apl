// Kusto: row_rank_min() example (the minimal row number of each Departures value).
// https://learn.microsoft.com/kusto/query/row-rank-min-function
datatable (Airport:string, Airline:string, Departures:long)
[
  "SEA", "LH", 3,
  "SEA", "LY", 100,
  "SEA", "UA", 3,
  "SEA", "BA", 2,
  "SEA", "EL", 3
]
| sort by Departures asc
| extend Rank=row_rank_min(Departures)
