// expect: hash of tostring(method); distinct methods sorted: DELETE,GET,POST,PUT,get with their md5 (checked with node crypto)
ds | distinct method | sort by method asc | project method, h = hash_md5(method)
