// expect: every accuracy level 0-4 is accepted by dcount, dcountif, hll and hll_if; "When the accuracy level
// is 1, 1000 values are returned" exactly: 1000 distinct values at every level count 1000
// (source: https://learn.microsoft.com/kusto/query/dcount-aggfunction, "Estimation accuracy")
range x from 1 to 1000 step 1
| summarize d0 = dcount(x, 0), d1 = dcount(x, 1), d2 = dcount(x, 2), d3 = dcount(x, 3), d4 = dcount(x, 4),
            i4 = dcountif(x, x > 500, 4), h0 = dcount_hll(hll(x, 0)), h4 = dcount_hll(hll_if(x, x <= 10, 4))
