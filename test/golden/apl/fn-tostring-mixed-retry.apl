// expect: tostring of mixed long/string retry and nullable city; asc c=Paris,"",Berlin,Paris,São Paulo,Berlin,Paris,"" r="3","1","0","2","x","3","","2"
ds | sort by _time asc | project c = tostring(city), r = tostring(retry)
