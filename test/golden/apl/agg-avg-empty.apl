// expect: avg of no values -> null
ds | where city == "Nowhere" | summarize avg(dur)
