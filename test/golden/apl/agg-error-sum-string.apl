// expect: sum of a string field is a type error: error invalid apl_type_mismatch
ds | summarize sum(method)
