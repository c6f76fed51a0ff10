// expect: distinct status per method: DELETE 1, GET 3 (200,404,502), POST 1, PUT 1, get 1
ds | summarize d = dcount(status) by method | sort by method asc
