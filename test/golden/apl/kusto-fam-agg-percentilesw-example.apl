// expect: percentile_LatencyBucket_50 20, percentile_LatencyBucket_75 20, percentile_LatencyBucket_99_9 40 (source: https://learn.microsoft.com/kusto/query/percentilesw-aggregation-function)
let latencyTable = datatable (ReqCount:long, LatencyBucket:long)
[
    8, 10,
    6, 20,
    3, 30,
    1, 40
];
latencyTable
| summarize percentilesw(LatencyBucket, ReqCount, 50, 75, 99.9)
