// expect: with set stricttypes iff branches of different types (string, long) are a type error: error invalid apl_type_mismatch
set stricttypes; ds | extend x = iff(bytes > 100, "big", 0)
