// expect: !has excludes rows having the term; null msg is true -> upstream timeout, moved, null, cache_miss key=42, ERROR: disk full
ds | where msg !has "ok" and msg !has "failed" | project msg
