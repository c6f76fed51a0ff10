// expect: bin(bytes,500): null group for null bytes; rows [null,1],[0,5],[1000,1],[2000,1]
ds | summarize c = count() by b = bin(bytes, 500) | sort by b asc
