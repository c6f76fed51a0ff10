// expect: second sum(bytes) gets suffix 1: sum_bytes 3694, sum_bytes1 3694
ds | summarize sum(bytes), sum(bytes)
