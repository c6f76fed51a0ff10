// expect: in against a datatable subquery, first column only: status 301 and 404 -> ["cache_miss key=42"], ["moved"]
ds | where status in (datatable(s:string, x:long)["301", 1, "404", 2]) | project msg | sort by msg asc
