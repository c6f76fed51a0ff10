// expect: sum of no rows = 0 (docs/apl.md), no by -> one row [0]
ds | where method == "PATCH" | summarize sum(bytes)
