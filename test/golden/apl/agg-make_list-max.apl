// expect: make_list(bytes, 2) keeps at most 2 elements -> n=2; full list length 7 (null skipped)
ds | summarize n = array_length(make_list(bytes, 2)), all = array_length(make_list(bytes))
