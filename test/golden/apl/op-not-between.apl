// expect: !between negates; null bytes is null and dropped -> 0, 10, 1234, 2000
ds | where bytes !between (50 .. 1000) | project bytes | sort by bytes asc
