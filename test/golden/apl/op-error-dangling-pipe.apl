// expect: dangling pipe -> HTTP 400: error invalid <apl_* code>
ds | where dur > 1 |
