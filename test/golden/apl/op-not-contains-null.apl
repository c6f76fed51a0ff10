// expect: !contains is case-insensitive; null msg gives true (engine choice) -> 01:30 null, 00:50 "cache_miss key=42"
ds | where msg !contains "o" | project _time, msg
