// expect: per the page's definition (two columns per clause, `aggregated_<Expr>`; the top 2 states by the sum, then each one's top event type): TX|30|Hail|20, CA|25|Fire|25 (source: https://learn.microsoft.com/kusto/query/top-nested-operator, its StormEvents query over a datatable)
datatable(State: string, EventType: string, Damage: long)
[
  "TX", "Hail", 15, "TX", "Hail", 5, "TX", "Flood", 10,
  "CA", "Fire", 25,
  "OH", "Hail", 3, "OH", "Flood", 4
]
| top-nested 2 of State by sum(Damage),
  top-nested 1 of EventType by sum(Damage)
