// expect: city:"paris" = city has "paris" (case-insensitive): GET 200 00:10, get 200 01:05, PUT 301 -> ["GET","200"], ["get","200"], ["PUT","301"]
ds | search city:"paris" | project method, status | sort by status asc, method asc
