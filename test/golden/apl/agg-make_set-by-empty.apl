// expect: empty input without by: make_set_city = [] and make_list_city = []
ds | where method == "PATCH" | summarize make_set(city), make_list(city)
