// expect: the page's pattern `T | where … | as T | where Name == "Start" | join (T | where Name == "Stop") on ActivityId`: one row per activity with both a Start and a Stop (source: https://learn.microsoft.com/kusto/query/as-operator "the tabular expression named using the operator in a join's outer tabular input ($left) can also be used in the join's tabular inner input ($right)")
datatable(type: string, Name: string, ActivityId: long)
[
  "Event", "Start", 1, "Event", "Stop", 1,
  "Event", "Start", 2,
  "Trace", "Stop", 2,
  "Event", "Start", 3, "Event", "Stop", 3
]
| where type == "Event"
| as T
| where Name == "Start"
| join (
    T
    | where Name == "Stop"
) on ActivityId
| sort by ActivityId asc
