// expect: or three-valued: dur > 500 or bytes < 60; null or true = true (00:50, no dur), false or null = null drops 01:05 (no bytes) -> 03:45, 02:15, 01:30, 00:50
ds | where dur > 500 or bytes < 60 | project _time
