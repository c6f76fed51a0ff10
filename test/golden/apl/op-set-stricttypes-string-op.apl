// expect: with set stricttypes a string operator on a long is a type error (no implicit tostring): error invalid apl_type_mismatch
set stricttypes; ds | where bytes contains "1"
