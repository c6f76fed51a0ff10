// expect: hint.materialized=false recalculates T on every reference, so the join's right side draws new rand() values: all 3 rows differ (source: https://learn.microsoft.com/kusto/query/as-operator "Otherwise, the value will be recalculated on every reference")
range x from 1 to 3 step 1
| extend r = rand()
| as hint.materialized=false T
| join (T) on x
| where r != r1
| count
