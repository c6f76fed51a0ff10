// expect: default names count_ 8, sum_bytes 3694, min_dur 5.5, max_city São Paulo, dcount_method 5, countif_ 1 (method == "PUT")
ds | summarize count(), sum(bytes), min(dur), max(city), dcount(method), countif(method == "PUT")
