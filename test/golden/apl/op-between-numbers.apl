// expect: between is inclusive on both ends; null dur dropped -> 12.5, 42, 99.9, 250.25
ds | where dur between (12.5 .. 250.25) | project dur | sort by dur asc
