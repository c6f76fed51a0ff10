// expect: method|city with null city -> ""; asc GET|Paris, POST|, GET|Berlin, get|Paris, DELETE|São Paulo, GET|Berlin, PUT|Paris, GET|
ds | sort by _time asc | project s = strcat_delim("|", method, city)
