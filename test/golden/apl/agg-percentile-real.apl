// expect: dur sorted 5.5,12.5,42,99.9,250.25,700.5,1000: p25 rank 2 -> 12.5, p95 rank 7 -> 1000, p100 -> 1000
ds | summarize a = percentile(dur, 25), b = percentile(dur, 95), c = percentile(dur, 100)
