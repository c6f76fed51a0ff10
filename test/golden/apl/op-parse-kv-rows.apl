// expect: msg split on spaces; only "cache_miss key=42" (the 404 row) has key=, converted to long -> ["404",42]
ds | parse-kv msg as (key:long) with (pair_delimiter=" ", kv_delimiter="=") | where isnotnull(key) | project status, key
