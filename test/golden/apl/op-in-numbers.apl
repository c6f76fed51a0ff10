// expect: in with mixed int/real literals on a long field -> 300, 0, 100 newest first
ds | where bytes in (100, 300.0, 0) | project bytes
