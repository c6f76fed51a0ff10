// expect: the size cap of make_list must be a positive integer: error invalid apl_invalid_argument
ds | summarize make_list(method, 0)
