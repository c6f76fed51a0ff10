// expect: no by on empty input: one row, count 0, sum 0 (engine choice), avg null -> [0,0,null]
ds | where method == "PATCH" | summarize n = count(), s = sum(bytes), a = avg(dur)
