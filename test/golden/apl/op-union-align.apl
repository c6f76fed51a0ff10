// expect: union aligns columns by name, missing ones null -> a, b: [1,null], [null,"x"]
datatable(a:long)[1] | union (datatable(b:string)["x"]) | sort by a asc nulls last
