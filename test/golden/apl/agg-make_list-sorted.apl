// expect: make_list skips nulls; sorted: ["Berlin","Berlin","Paris","Paris","Paris","São Paulo"]
ds | summarize l = array_sort_asc(make_list(city))
