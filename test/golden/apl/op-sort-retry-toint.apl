// expect: mixed retry sorted via toint, desc default nulls last -> 3,3,2,2,1,0,null,null
ds | extend r = toint(retry) | sort by r | project r
