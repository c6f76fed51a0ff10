// expect: arithmetic with a null operand is null -> 187.5, 3749.75, null, null, -1000, 594.5, -22, 1767.5 by _time asc
ds | project _time, x = bytes * 2 - dur | sort by _time asc | project x
