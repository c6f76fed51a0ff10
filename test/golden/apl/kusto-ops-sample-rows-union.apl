// expect: two rows of x, each drawn at random from 1..100 (page: 74 and 63); checked by shape: 2 rows, values in range (source: https://learn.microsoft.com/kusto/query/sample-operator)
let _data = range x from 1 to 100 step 1;
let _sample = _data | sample 1;
union (_sample), (_sample)
| summarize rows = count(), in_range = countif(x >= 1 and x <= 100)
