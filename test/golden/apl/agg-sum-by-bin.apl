// expect: per hour: 00:00 2150, 01:00 0 (null + 0), 02:00 310, 03:00 1234
ds | summarize s = sum(bytes) by bin(_time, 1h) | sort by _time asc
