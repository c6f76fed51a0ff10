// expect: non-aggregate expression before by -> HTTP 400: error invalid <apl_* code>
ds | summarize method by city
