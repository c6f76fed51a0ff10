// expect: in works for datetimes -> 02:15, 00:10
ds | where _time in (datetime(2024-05-01T00:10:00Z), datetime(2024-05-01T02:15)) | project _time
