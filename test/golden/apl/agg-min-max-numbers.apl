// expect: min_dur 5.5, max_dur 1000, min_bytes 0, max_bytes 2000
ds | summarize min(dur), max(dur), min(bytes), max(bytes)
