// expect: empty input with by -> header only (city:string, count_:integer), no rows
ds | where method == "PATCH" | summarize count() by city
