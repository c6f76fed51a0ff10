// expect: pair_delimiter and kv_delimiter are required -> error invalid apl_invalid_argument
ds | parse-kv msg as (key:long)
