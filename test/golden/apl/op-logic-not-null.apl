// expect: not(null) is null, so the row without dur is dropped -> 99.9, 250.25, 700.5, 1000
ds | where not(dur < 50) | project dur | sort by dur asc
