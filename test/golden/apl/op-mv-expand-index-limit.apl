// expect: with_itemindex adds the 0-based index, to typeof(long) types elements, limit 2 caps rows -> ["x",0,1], ["x",1,2]
datatable(k:string, arr:dynamic)["x", dynamic([1, 2, 3])] | mv-expand with_itemindex=i arr to typeof(long) limit 2 | project k, i, arr
