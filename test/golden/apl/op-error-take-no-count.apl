// expect: take without count -> HTTP 400: error invalid <apl_* code>
ds | take
