// expect: long field vs real literal -> bytes in (99.5, 300] = 100, 300
ds | where bytes > 99.5 and bytes <= 300 | project bytes | sort by bytes asc
