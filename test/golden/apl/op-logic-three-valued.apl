// expect: and/or three-valued on (bytes > 100, dur > 100) -> by _time asc a: F,T,F,F,F,F,F,T; o: F,T,null,null,T,T,F,T
ds | extend big = bytes > 100, slow = dur > 100 | project _time, a = big and slow, o = big or slow | sort by _time asc | project a, o
