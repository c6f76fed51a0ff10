// expect: unnamed aggregates count_, avg_dur, dcount_method; by key first; 200 -> 3, 117.9/3 = 39.300000000000004 in binary64, 2 (GET/get case-sensitive); 404 avg of no values null
ds | summarize count(), avg(dur), dcount(method) by status | sort by status asc
