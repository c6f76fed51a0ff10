// expect: count of no rows -> [0]
ds | where dur > 5000 | count
