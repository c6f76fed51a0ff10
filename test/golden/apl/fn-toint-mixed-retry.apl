// expect: toint of long and string retry; "x" and missing -> null; asc 3,1,0,2,null,3,null,2
ds | sort by _time asc | project r = toint(retry)
