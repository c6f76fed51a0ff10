// expect: the first argument of iff is a predicate; a long is a type error: error invalid apl_type_mismatch
ds | extend x = iff(bytes, 1, 2)
