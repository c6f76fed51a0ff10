// expect: mixed-type retry compared through toint/tostring -> 03:45 2, 02:00 "3", 01:05 "2", 00:10 3 (newest first)
ds | where toint(retry) == 2 or tostring(retry) == "3" | project _time, retry
