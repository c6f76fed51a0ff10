// expect: where without predicate -> HTTP 400: error invalid <apl_* code>
ds | where
