// expect: top without by -> HTTP 400: error invalid <apl_* code>
ds | top 5
