// expect: percentile arrays of datetimes hold ISO text, of timespans timespan text (nearest rank): _time p0 00:10, p50 01:05 (4th of 8), p100 03:45; offsets p50 01:05:00 -> [["2024-05-01T00:10:00Z","2024-05-01T01:05:00Z","2024-05-01T03:45:00Z"],["01:05:00"]]
ds | summarize t = percentiles_array(_time, 0, 50, 100), o = percentiles_array(_time - datetime(2024-05-01), 50)
