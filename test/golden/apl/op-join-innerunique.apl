// expect: innerunique keeps the first left row per key, then inner -> a 1 10, a 1 20 (b unmatched)
datatable(k:string, v:long)["a",1,"a",2,"b",3] | join kind=innerunique (datatable(k:string, w:long)["a",10,"a",20]) on k | sort by w asc
