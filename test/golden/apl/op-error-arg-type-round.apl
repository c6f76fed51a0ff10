// expect: round takes a number; a string field is a type error before execution: error invalid apl_type_mismatch
ds | extend r = round(method, 1)
