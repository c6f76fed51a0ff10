// Kusto: https://learn.microsoft.com/kusto/query/make-series-operator (supported parameters: kind=nonempty "produces default result when the input of make-series operator is empty"; its example gives one row of nine defaults 1.0 over 2017-01-01 .. 2017-01-09) -- the same with `by`: one row, the nine defaults; the page does not name the key of that row (Quarry: null; isempty is true for Kusto's "" as well) -> [true,[1,1,1,1,1,1,1,1,1],9]
let data=datatable(timestamp:datetime, metric: real, host: string)
[
  datetime(2017-01-01), 4, "a",
  datetime(2017-01-02), 3, "b",
];
data
| take 0
| make-series kind=nonempty avg(metric) default=1.0 on timestamp from datetime(2017-01-01) to datetime(2017-01-10) step 1d by host
| project empty_key = isempty(host), avg_metric, n = array_length(timestamp)
