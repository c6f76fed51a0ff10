// expect: datetime between numbers is a type error: error invalid apl_type_mismatch
ds | where _time between (1 .. 2)
