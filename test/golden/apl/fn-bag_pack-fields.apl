// expect: bag with null city kept as null; rows for POST and DELETE: {"m":"POST","c":null}, {"m":"DELETE","c":"São Paulo"} (sorted by method asc: DELETE first)
ds | where method in ("POST", "DELETE") | sort by method asc | project b = bag_pack("m", method, "c", city)
