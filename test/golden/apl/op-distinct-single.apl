// expect: distinct returns only the listed column -> 200, 301, 404, 500, 502, 503
ds | distinct status | sort by status asc
