// expect: limit is take; after sort asc (nulls first) -> null, 0, 10
ds | sort by bytes asc | limit 3 | project bytes
