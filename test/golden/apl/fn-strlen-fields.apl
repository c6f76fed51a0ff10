// expect: strlen counts unicode chars; asc 5,null,6,5,9,6,5,null
ds | sort by _time asc | project n = strlen(city)
