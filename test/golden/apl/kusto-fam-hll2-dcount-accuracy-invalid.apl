// expect: error — dcount's accuracy is one of the levels 0 to 4 of the page's "Estimation accuracy" table
// (source: https://learn.microsoft.com/kusto/query/dcount-aggfunction)
range x from 1 to 5 step 1
| summarize dcount(x, 5)
