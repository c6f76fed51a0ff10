// expect: sum of bytes skips null -> 3694 (integer), name sum_bytes
ds | summarize sum(bytes)
