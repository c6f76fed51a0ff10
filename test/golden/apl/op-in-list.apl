// expect: in with a literal list, case-sensitive -> 02:15 301, 02:00 200, 01:05 200, 00:10 200
ds | where status in ("200", "301") | project _time, status
