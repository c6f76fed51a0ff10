// expect: events summed in daily bins aligned to 2018-02-24 15:14 -> 23rd 15:14: 8, 24th 15:14: 7, 26th 15:14: 5 (the unnamed bin_at key is named after its column, Date, as on the page) (source: https://learn.microsoft.com/kusto/query/bin-at-function, the page's example)
datatable(Date:datetime, NumOfEvents:int)[
datetime(2018-02-24T15:14),3,
datetime(2018-02-24T15:24),4,
datetime(2018-02-23T16:14),4,
datetime(2018-02-23T17:29),4,
datetime(2018-02-26T15:14),5]
| summarize TotalEvents=sum(NumOfEvents) by bin_at(Date, 1d, datetime(2018-02-24 15:14:00.0000000))
| order by Date asc
