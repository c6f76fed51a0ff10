// expect: == with one null side is false, != true -> by _time asc e: T,F,F,T,F,F,T,F; n: F,T,T,F,T,T,F,T
ds | project _time, e = city == "Paris", n = city != "Paris" | sort by _time asc | project e, n
