// expect: one value (São Paulo dur 1000) -> stdev 0, variance 0; empty -> 0
ds | where city == "São Paulo" | summarize stdev(dur), variance(dur)
