// expect: [20,20,40] (the page names the column percentile_LatencyBucket; Quarry uses Axiom's documented name percentilesw_LatencyBucket) (source: https://learn.microsoft.com/kusto/query/percentilesw-aggregation-function)
let latencyTable = datatable (ReqCount:long, LatencyBucket:long)
[
    8, 10,
    6, 20,
    3, 30,
    1, 40
];
latencyTable
| summarize percentilesw_array(LatencyBucket, ReqCount, 50, 75, 99.9)
