// expect: inclusive datetime bounds: 01:05, 01:30, 02:00 -> count 3
ds | where _time between (datetime(2024-05-01T01:00:00Z) .. datetime(2024-05-01T02:00:00Z)) | count
