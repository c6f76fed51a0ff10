// expect: let-bound table of cities with a 2xx status: Paris, Berlin; !in keeps the others, missing or null city included (negated null is true): 500 (no city), 502 (null), 503 (São Paulo) -> ["500"], ["502"], ["503"]
let ok_cities = ds | where status startswith "2" | project city; ds | where city !in (ok_cities) | project status | sort by status asc
