// expect: null city (missing e2 + null e8) forms one group; sorted asc nulls first: [null,2],[Berlin,2],[Paris,3],[São Paulo,1]
ds | summarize count() by city | sort by city asc
