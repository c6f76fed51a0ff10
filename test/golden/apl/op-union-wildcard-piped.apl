// expect: ds POST 500 plus ds2 rows GET 200, POST 500 -> ["GET","200"], ["POST","500"], ["POST","500"]
ds | where status == "500" | union ds2* | project method, status | sort by method asc, status asc
