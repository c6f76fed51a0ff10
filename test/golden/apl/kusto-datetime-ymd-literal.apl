// expect: MondayWeek 2025-06-09 for Saturday 2025-06-14 and Sunday 2025-06-15, 2025-06-16 for Monday 2025-06-16 and Tuesday 2025-06-17; datetime(2025, 6, 14) is 2025-06-14 00:00 (source: https://learn.microsoft.com/kusto/query/startofweek-function, the page's second example)
let startofweekFromMonday = (dateArg: datetime) {
    datetime_add('day', 1, startofweek(datetime_add('day', -1, dateArg)))
};
let data=datatable(Date: datetime, day: string)
[
datetime(2025, 6, 14), "Saturday",
datetime(2025, 6, 15), "Sunday",
datetime(2025, 6, 16), "Monday",
datetime(2025, 6, 17), "Tuesday"
];
data 
| extend MondayWeek=startofweekFromMonday(Date)
