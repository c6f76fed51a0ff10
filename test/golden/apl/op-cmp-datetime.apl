// expect: datetime comparison, >= inclusive and < exclusive -> 02:00, 01:30, 01:05 newest first
ds | where _time >= datetime(2024-05-01T01:05:00Z) and _time < datetime(2024-05-01T02:15) | project _time
