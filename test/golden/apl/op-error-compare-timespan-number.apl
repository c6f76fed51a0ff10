// expect: a timespan compared with a number is a type error (no comparing milliseconds): error invalid apl_type_mismatch
print x = 1h == 3600000
