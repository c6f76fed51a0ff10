// expect: minute 00:01:00, hour 01:00:00, day 1.00:00:00, year 365.00:00:00, each timeAgo exactly that far before now() (the page's timeAgo values depend on when it ran) (source: https://learn.microsoft.com/kusto/query/now-function, "Get the date relative to a specific time interval")
let T = datatable(label: string, timespanValue: timespan) [
    "minute", 60s,
    "hour", 1h,
    "day", 1d,
    "year", 365d
];
T
| extend timeAgo = now() - timespanValue
| project label, timespanValue, exact = now() - timeAgo == timespanValue
