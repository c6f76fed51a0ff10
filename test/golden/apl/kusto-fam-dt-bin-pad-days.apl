// expect: one row per day 2007-04-07 .. 2007-04-14: 0, 3000, 0, 0, 1000, 105000, 0, 0 (the page's three California strong-wind rows of StormEvents transcribed into a datatable: the table itself is not available) (source: https://learn.microsoft.com/kusto/query/bin-function, "Pad a table with null bins")
let Start = datetime('2007-04-07');
let End = Start + 7d;
datatable (StartTime: datetime, DamageProperty: long) [
    datetime(2007-04-08 13:00), 3000,
    datetime(2007-04-11 02:00), 1000,
    datetime(2007-04-12 20:30), 105000
]
| where StartTime between (Start .. End)
| union (
    range x from 1 to 1 step 1
    | mv-expand StartTime=range(Start, End, 1d) to typeof(datetime)
    | extend PropertyDamage=0
    )
| summarize PropertyDamage=sum(DamageProperty) by bin(StartTime, 1d)
| order by StartTime asc
