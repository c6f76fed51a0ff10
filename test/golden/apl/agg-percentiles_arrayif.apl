// expect: GET durations (null skipped): 5.5, 12.5, 700.5; nearest rank p50 = 12.5, p100 = 700.5 -> [[12.5,700.5]]
ds | summarize p = percentiles_arrayif(dur, dynamic([50, 100]), method == "GET")
