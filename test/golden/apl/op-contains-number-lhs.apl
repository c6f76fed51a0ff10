// expect: a non-string left side is converted to text -> bytes 1234 contains "23"
ds | where bytes contains "23" | project bytes
