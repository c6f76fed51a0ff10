// expect: case predicates are bool; "x" in a predicate position is a type error: error invalid apl_type_mismatch
ds | extend x = case(bytes > 100, "big", "x", "y", "small")
