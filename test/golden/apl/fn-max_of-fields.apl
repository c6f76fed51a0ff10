// expect: row-wise max ignoring nulls; asc 100,2000,50,99.9,1000,300,42,1234
ds | sort by _time asc | project m = max_of(dur, toreal(bytes))
