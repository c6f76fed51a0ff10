// expect: null is a distinct value -> null, Berlin, Paris, São Paulo
ds | distinct city | sort by city asc
