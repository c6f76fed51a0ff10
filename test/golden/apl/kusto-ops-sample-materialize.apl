// expect: two rows with the same x (page: 24 and 24); checked by shape: 2 rows, 1 distinct value (source: https://learn.microsoft.com/kusto/query/sample-operator)
let _data = range x from 1 to 100 step 1;
let _sample = materialize(_data | sample 1);
union (_sample), (_sample)
| summarize rows = count(), values = dcount(x)
