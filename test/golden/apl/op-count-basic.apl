// expect: | count gives one column named count -> [3] for Paris
ds | where city == "Paris" | count
