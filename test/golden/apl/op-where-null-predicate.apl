// expect: dur > 100 is null for the row without dur, so it is dropped; raw rows newest first -> 03:45 700.5, 01:30 1000, 00:20 250.25
ds | where dur > 100 | project _time, dur
