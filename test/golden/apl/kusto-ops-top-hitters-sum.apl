// expect: the page's equivalent `summarize S = sum(SummingExpression) by ValueExpression | top N by S desc`: OHIO 30, IOWA 8 (source: https://learn.microsoft.com/kusto/query/top-hitters-operator)
datatable(EventType: string, State: string, Damage: long)
[
  "Hail", "TEXAS", 5, "Hail", "IOWA", 1, "Hail", "TEXAS", 2,
  "Flood", "OHIO", 10, "Flood", "OHIO", 20, "Drought", "IOWA", 7
]
| top-hitters 2 of State by Damage
