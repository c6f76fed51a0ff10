// expect: the page's equivalent `summarize C = count() by ValueExpression | top N by C desc`: Hail 3, Flood 2 (source: https://learn.microsoft.com/kusto/query/top-hitters-operator; column name approximate_count_EventType as in the page's "Get most frequent items" output)
datatable(EventType: string, State: string, Damage: long)
[
  "Hail", "TEXAS", 5, "Hail", "IOWA", 1, "Hail", "TEXAS", 2,
  "Flood", "OHIO", 10, "Flood", "OHIO", 20, "Drought", "IOWA", 7
]
| top-hitters 2 of EventType
