// expect: hint.materialized=true computes T once, so both sides of the self-join read the same rand() values: 0 rows differ (source: https://learn.microsoft.com/kusto/query/as-operator "If Materialized is set to true, the value of the tabular expression will be as if it was wrapped by a materialize() function call"; https://learn.microsoft.com/kusto/query/materialize-function "To evaluate a tabular expression only once ... if the expression uses the rand() ... function")
range x from 1 to 3 step 1
| extend r = rand()
| as hint.materialized=true T
| join (T) on x
| where r != r1
| count
