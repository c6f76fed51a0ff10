// expect: ago(23h)=2024-05-01T01:00Z; events after: 01:05,01:30,02:00,02:15,03:45 -> count 5
ds | where _time > ago(23h) | count
