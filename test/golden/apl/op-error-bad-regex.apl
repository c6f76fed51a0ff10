// expect: invalid regex found at run time -> HTTP 400: error invalid <apl_* code>
ds | where msg matches regex "("
