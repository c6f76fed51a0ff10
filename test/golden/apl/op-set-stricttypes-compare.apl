// expect: with set stricttypes a string field compared with a number is a type error instead of a silent null: error invalid apl_type_mismatch
set stricttypes; ds | where status >= 500 | count
