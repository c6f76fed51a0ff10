// expect: ago takes a timespan; "1h" is a string: error invalid apl_type_mismatch
ds | where _time > ago("1h")
