// expect: is_error is a virtual field of ds2 only, so ds rejects it -> error invalid apl_unknown_field
ds | where is_error | count
