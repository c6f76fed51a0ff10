// expect: not(null) = null; n=not(isnull(city)) asc T,F,T,T,T,T,T,F; m=not(bytes>100) T,F,T,null,T,F,T,F
ds | sort by _time asc | project n = not(isnull(city)), m = not(bytes > 100)
