// expect: GET rows whose text has no term "ok": 404 "cache_miss key=42", 502 "upstream timeout" -> ["cache_miss key=42","404"], ["upstream timeout","502"]
ds | search not "ok" and method == "GET" | project msg, status | sort by status asc
