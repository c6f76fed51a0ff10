// expect: <> is != -> method not GET (case-sensitive): POST, get, DELETE, PUT = 4
ds | where method <> "GET" | count
