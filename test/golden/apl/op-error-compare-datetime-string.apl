// expect: a datetime compared with a string is a type error, not a silent empty result: error invalid apl_type_mismatch
ds | where _time > "2024-05-01T03:00:00Z"
