// expect: project of a missing column -> HTTP 400: error invalid <apl_* code>
ds | project method, nosuch
