ds | where method =~ "get" | count
