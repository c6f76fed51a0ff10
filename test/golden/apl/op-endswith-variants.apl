// expect: endswith (ci), !endswith (null -> true), endswith_cs, null city false -> by _time asc a: T,F,F,F,F,T,F,F; b: not a; c: T,F,F,F,F,T,F,F; d: only São Paulo
ds | project _time, a = msg endswith "OK", b = msg !endswith "ok", c = msg endswith_cs "ok", d = city endswith "lo" | sort by _time asc | project a, b, c, d
