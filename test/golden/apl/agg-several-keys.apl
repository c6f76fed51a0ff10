// expect: by method, city asc nulls first: (DELETE,São Paulo,1,0),(GET,null,1,1234),(GET,Berlin,2,350),(GET,Paris,1,100),(POST,null,1,2000),(PUT,Paris,1,10),(get,Paris,1,0 sum of only null)
ds | summarize c = count(), b = sum(bytes) by method, city | sort by method asc, city asc
