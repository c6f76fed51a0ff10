// expect: let binds a timespan used in between (t .. w) -> 00:50, 00:20, 00:10 (00:00..01:00) newest first
let w = 1h;
ds | where _time between (datetime(2024-05-01) .. w) | project _time
