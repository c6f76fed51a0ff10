// expect: explicit nulls last with asc -> Berlin, Berlin, Paris x3, São Paulo, null, null
ds | sort by city asc nulls last | project city
