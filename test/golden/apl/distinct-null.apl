ds | distinct method, city | sort by method asc, city asc
