// expect: trailing comma -> HTTP 400: error invalid <apl_* code>
ds | project method,
