// expect: countif takes a predicate; a long is a type error: error invalid apl_type_mismatch
ds | summarize countif(bytes)
