// expect: bin of a datetime needs a timespan size; 3600 is a type error: error invalid apl_type_mismatch
ds | summarize count() by bin(_time, 3600)
