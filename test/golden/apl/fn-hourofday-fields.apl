// expect: asc 0,0,0,1,1,2,2,3
ds | sort by _time asc | project h = hourofday(_time)
