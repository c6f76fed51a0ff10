// expect: empty stage -> HTTP 400: error invalid <apl_* code>
ds || count
