// expect: position of "a" in city, null city -> null; asc 1,null,-1,1,5,-1,1,null
ds | sort by _time asc | project i = indexof(city, "a")
