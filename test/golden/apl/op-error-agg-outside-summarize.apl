// expect: aggregate outside summarize -> HTTP 400: error invalid <apl_* code>
ds | where count() > 5
