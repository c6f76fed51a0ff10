// expect: number of space-separated parts of msg; null msg -> null; asc 2,3,2,2,null,3,1,2
ds | sort by _time asc | project n = array_length(split(msg, " "))
