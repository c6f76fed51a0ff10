// expect: rows with null dur ignored; per city: null (700.5, upstream timeout), Berlin (5.5, user login ok), Paris (99.9, Login failed), São Paulo (1000, null msg)
ds | summarize arg_max(dur, msg) by city | sort by city asc
