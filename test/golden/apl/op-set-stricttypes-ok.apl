// expect: explicit conversions, long vs real and strings in a string list are fine under stricttypes: toint(status) >= 500 -> POST 2000, DELETE 0, GET 1234; bytes > 100.5 -> 2000, 1234; method GET/PUT -> the GET row -> ["502",1234]
set stricttypes; ds | where toint(status) >= 500 and bytes > 100.5 and method in ("GET", "PUT") | project status, bytes
