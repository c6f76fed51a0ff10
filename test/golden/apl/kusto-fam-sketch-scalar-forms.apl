// expect: outside summarize hll_merge(h1, h2) and tdigest_merge(t1, t2) are the scalar forms (the pages list both);
// methods split by status class (2xx/3xx vs 4xx/5xx) union to all 5, and bytes merge to a max of 2000
// (sources: https://learn.microsoft.com/kusto/query/hll-merge-function, https://learn.microsoft.com/kusto/query/merge-tdigest-function)
ds
| summarize lo = hll_if(method, toint(status) < 400), hi = hll_if(method, toint(status) >= 400),
            tlo = tdigest(iff(toint(status) < 400, bytes, long(null))), thi = tdigest(iff(toint(status) >= 400, bytes, long(null)))
| extend h = hll_merge(lo, hi), t = tdigest_merge(tlo, thi)
| project nlo = dcount_hll(lo), nhi = dcount_hll(hi), n = dcount_hll(h), p100 = percentile_tdigest(t, 100, typeof(long))
