// expect: has_any matches any listed whole term, case-insensitive; "time" is not a term of "timeout" -> "cache_miss key=42", "ERROR: disk full"
ds | where msg has_any ("miss", "FULL", "time") | project msg
