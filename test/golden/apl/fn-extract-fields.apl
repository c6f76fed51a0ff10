// expect: no match -> null; k asc null,null,"42",null,null,null,null,null; w (^[a-z]+ group 0) "user",null,"cache",null,null,"user","moved","upstream"
ds | sort by _time asc | project k = extract("key=([0-9]+)", 1, msg), w = extract("^[a-z]+", 0, msg)
