// expect: startswith on a long converts it to text -> 1234, 10, 100 newest first
ds | where bytes startswith "1" | project bytes
