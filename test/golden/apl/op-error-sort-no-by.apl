// expect: sort without by -> HTTP 400: error invalid <apl_* code>
ds | sort
