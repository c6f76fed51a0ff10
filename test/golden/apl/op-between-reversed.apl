// expect: between with lower > upper matches nothing -> count 0
ds | where bytes between (1000 .. 10) | count
