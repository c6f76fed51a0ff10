// expect: empty input one row: count_ 0, sum_bytes 0, avg_bytes null, min_dur null, max_city null, dcount_city 0, percentile_bytes null, make_list_city [], stdev_dur 0
ds | where method == "PATCH" | summarize count(), sum(bytes), avg(bytes), min(dur), max(city), dcount(city), percentile(bytes, 50), make_list(city), stdev(dur)
