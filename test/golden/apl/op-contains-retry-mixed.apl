// expect: contains converts a long retry to text, string retry matches as text -> 02:00 "3", 00:10 3
ds | where retry contains "3" | project _time, retry
