// expect: union does not deduplicate -> count 2
ds | where method == "PUT" | union (ds | where method == "PUT") | count
