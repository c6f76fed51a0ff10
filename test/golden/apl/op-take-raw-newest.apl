// expect: take on raw rows returns the newest N -> 03:45, 02:15
ds | take 2 | project _time
