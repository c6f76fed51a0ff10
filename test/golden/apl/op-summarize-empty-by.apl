// expect: by on empty input: zero rows, header city:string, n:integer
ds | where method == "PATCH" | summarize n = count() by city
