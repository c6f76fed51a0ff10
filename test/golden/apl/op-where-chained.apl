// expect: consecutive wheres are conjunctive: GET rows with bytes >= 100 -> 1234, 300, 100 (newest first)
ds | where method == "GET" | where bytes >= 100 | project bytes
