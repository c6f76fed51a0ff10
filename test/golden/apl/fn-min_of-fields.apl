// expect: row-wise min ignoring nulls of dur and toreal(bytes); asc 12.5,250.25,50,99.9,0,5.5,10,700.5
ds | sort by _time asc | project m = min_of(dur, toreal(bytes))
