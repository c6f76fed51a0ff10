// expect: 30m buckets named _time: 00:00 2, 00:30 1, 01:00 1, 01:30 1, 02:00 2, 03:30 1
ds | summarize c = count() by bin(_time, 30m) | sort by _time asc
