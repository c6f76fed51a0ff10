// expect: digits form terms: "key=42" has term 42 -> "cache_miss key=42"
ds | where msg has "42" | project msg
