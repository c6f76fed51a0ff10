// expect: substring by characters on unicode + null city; asc ari,null,erl,ari,ão ,erl,ari,null
ds | sort by _time asc | project s = substring(city, 1, 3)
