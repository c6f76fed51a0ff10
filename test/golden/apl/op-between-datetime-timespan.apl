// expect: datetime between (t .. 1h) means t .. t+1h inclusive -> 02:00, 01:30, 01:05
ds | where _time between (datetime(2024-05-01T01:00) .. 1h) | project _time
