// expect: the page's avg example with `in range(stime, etime, interval)`: the stop is inclusive, so ten bins 2017-01-01..2017-01-10, the last holding 5 (the 2017-01-10T05:00 row): [4,3,5,0,10.5,4,3,8,6.5,5] (source: https://learn.microsoft.com/kusto/query/make-series-operator "Alternate Syntax": "The stop value is inclusive")
let data=datatable(timestamp:datetime, metric: real)
[
  datetime(2016-12-31T06:00), 50,
  datetime(2017-01-01), 4,
  datetime(2017-01-02), 3,
  datetime(2017-01-03), 4,
  datetime(2017-01-03T03:00), 6,
  datetime(2017-01-05), 8,
  datetime(2017-01-05T13:40), 13,
  datetime(2017-01-06), 4,
  datetime(2017-01-07), 3,
  datetime(2017-01-08), 8,
  datetime(2017-01-08T21:00), 8,
  datetime(2017-01-09), 2,
  datetime(2017-01-09T12:00), 11,
  datetime(2017-01-10T05:00), 5,
];
let interval = 1d;
let stime = datetime(2017-01-01);
let etime = datetime(2017-01-10);
data
| make-series avg(metric) on timestamp in range(stime, etime, interval)
