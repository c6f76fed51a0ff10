// expect: =~ / !~ ignore case; =~ with a null side is false -> by _time asc a: T,F,T,T,F,T,F,T; b: F,T,F,F,T,F,T,F; c: only the moved row true
ds | project _time, a = method =~ "GET", b = method !~ "get", c = msg =~ "MOVED" | sort by _time asc | project a, b, c
