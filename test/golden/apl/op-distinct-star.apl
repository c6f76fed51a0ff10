// expect: distinct * over method,status -> 7 combinations: DELETE 503, GET 200/404/502, POST 500, PUT 301, get 200
ds | project method, status | distinct * | sort by method asc, status asc
