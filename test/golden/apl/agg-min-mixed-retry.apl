// expect: min/max of toint(retry): 0 and 3
ds | summarize lo = min(toint(retry)), hi = max(toint(retry))
