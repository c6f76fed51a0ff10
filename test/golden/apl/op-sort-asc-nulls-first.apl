// expect: asc puts nulls first -> null, 5.5, 12.5, 42, 99.9, 250.25, 700.5, 1000
ds | sort by dur asc | project dur
