// expect: take N larger than the input returns all rows -> the 4 GET rows newest first 03:45, 02:00, 00:50, 00:10
ds | where method == "GET" | take 100 | project _time
