// expect: unknown operator -> HTTP 400: error invalid <apl_* code>
ds | frobnicate
