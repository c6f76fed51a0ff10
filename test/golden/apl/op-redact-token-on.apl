// expect: a longer token replaces the whole match, only in msg -> ["cache_miss key=<num>","404"]
ds | where status == "404" | redact replaceToken="<num>" @"\d+" on msg | project msg, status
