// expect: todouble of mixed retry: asc 3,1,0,2,null,3,null,2 (float)
ds | sort by _time asc | project r = todouble(retry)
