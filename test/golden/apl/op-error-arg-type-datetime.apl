// expect: startofday takes a datetime; a string literal is a type error (wrap it in todatetime): error invalid apl_type_mismatch
ds | extend d = startofday("2024-05-01")
