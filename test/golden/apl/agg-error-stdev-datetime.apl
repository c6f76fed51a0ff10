// expect: stdev takes numbers; a datetime is a type error: error invalid apl_type_mismatch
ds | summarize stdev(_time)
