// expect: earliest row per method: DELETE 01:30 503, GET 00:10 200, POST 00:20 500, PUT 02:15 301, get 01:05 200
ds | summarize arg_min(_time, status) by method | sort by method asc
