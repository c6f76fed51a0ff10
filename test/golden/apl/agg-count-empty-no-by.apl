// expect: empty input without by -> one row [0]
ds | where method == "PATCH" | summarize count()
