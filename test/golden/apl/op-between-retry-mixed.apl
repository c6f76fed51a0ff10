// expect: between on mixed retry: string values compared with numbers are null and drop -> 03:45 2, 00:20 1 (longs 3 and 0 out of range)
ds | where retry between (1 .. 2) | project _time, retry
