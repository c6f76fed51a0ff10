// expect: invalid join kind -> HTTP 400: error invalid <apl_* code>
ds | join kind=sideways (ds) on city
