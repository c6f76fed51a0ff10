// expect: startswith (ci), !startswith (null -> true), startswith_cs -> by _time asc a: T,F,F,F,F,T,F,F; b: not a; c: T,F,F,F,F,T,F,F; d (method startswith_cs "G"): T,F,T,F,F,T,F,T
ds | project _time, a = msg startswith "USER", b = msg !startswith "user", c = msg startswith_cs "user", d = method startswith_cs "G" | sort by _time asc | project a, b, c, d
