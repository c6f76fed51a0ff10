// expect: percentile of no values -> null
ds | where method == "PATCH" | summarize p = percentile(dur, 50)
