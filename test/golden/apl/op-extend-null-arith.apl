// expect: bytes + dur (long + real = real) is null when either is null -> 112.5, 2250.25, null, null, 1000, 305.5, 52, 1934.5 by _time asc
ds | extend total = bytes + dur | project _time, total | sort by _time asc
