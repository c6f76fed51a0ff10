// expect: distinct methods sorted ["DELETE","GET","POST","PUT","get"]; distinct toint(retry) [0,1,2,3]
ds | summarize m = array_sort_asc(make_set(method)), r = array_sort_asc(make_set(toint(retry)))
