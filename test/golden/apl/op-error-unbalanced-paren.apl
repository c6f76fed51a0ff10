// expect: unbalanced parentheses -> HTTP 400: error invalid <apl_* code>
ds | where (dur > 1
