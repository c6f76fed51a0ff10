// expect: avg(bytes)=3694/7=527.7142857142857 (nulls skipped), avg of toint(retry)=11/6=1.8333333333333333
ds | summarize avg(bytes), r = avg(toint(retry))
