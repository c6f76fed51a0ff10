// expect: n is 1 (long), "2" (string), 2.5 (real) in one batch; column type lists every kind; gettype per row; toreal converts all -> (1,long,1), ("2",string,2), (2.5,real,2.5)
nested | sort by _time asc | project n, t = gettype(n), r = toreal(n)
