// expect: search term and a field predicate -> GET rows having term "ok": 02:00 and 00:10
ds | search "ok" and method == "GET" | project _time
