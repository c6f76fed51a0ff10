// expect: ordinal: min_method DELETE, max_method get (lower case after upper), min_city Berlin, max_city São Paulo (nulls skipped)
ds | summarize min(method), max(method), min(city), max(city)
