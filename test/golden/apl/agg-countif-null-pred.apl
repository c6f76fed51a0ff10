// expect: countif counts only true predicates (null bytes on e4 not counted); a=3 (bytes>100: 2000,300,1234), b=3 (status>=500), default name countif_ then countif_1
ds | summarize countif(bytes > 100), countif(toint(status) >= 500)
