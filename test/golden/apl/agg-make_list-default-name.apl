// expect: default name make_list_method; the single São Paulo row -> ["DELETE"]
ds | where city == "São Paulo" | summarize make_list(method)
