// expect: misspelled keyword is an unknown operator -> HTTP 400: error invalid <apl_* code>
ds | summarise count()
