// expect: !between with two datetimes -> 03:45, 00:10
ds | where _time !between (datetime(2024-05-01T00:15) .. datetime(2024-05-01T03:00)) | project _time
