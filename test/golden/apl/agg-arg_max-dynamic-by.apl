// expect: per method the row with the largest dur, its tags as stored (the tags column is all null in one batch and arrays in another): DELETE (1000,null), GET (700.5 at 03:45, no tags -> null), POST (250.25,[]), PUT (42,null), get (99.9,["c"])
ds | summarize arg_max(dur, tags) by method | sort by method asc
