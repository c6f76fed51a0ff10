// expect: Kusto returns a timespan: 00:00:00 (Sunday 1947-11-30), 1.00:00:00 (Monday 1970-05-11), and toint(dayofweek(1970-5-12)/1d) 2; Quarry follows Axiom (an int: 0, 1, 2; docs/apl.md) (source: https://learn.microsoft.com/kusto/query/day-of-week-function)
let dow = dayofweek(datetime(1970-5-12));
print sunday = dayofweek(datetime(1947-11-30 10:00:05)), monday = dayofweek(datetime(1970-05-11)), tuesday = dow
