// expect: pack_array(*) and bag_pack(*) pack the row values in column order -> [["x",1],{"a":"x","b":1}] for the a, b columns
datatable(a:string, b:long)["x", 1] | project p = pack_array(*), q = bag_pack(*)
