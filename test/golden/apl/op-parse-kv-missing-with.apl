// expect: Kusto's parse-kv without with (...): any non-alphanumeric character separates; only "cache_miss key=42" (the 404 row) has the word key -> ["404",42]
ds | parse-kv msg as (key:long) | where isnotnull(key) | project status, key
