// expect: array of method and bytes, null kept; asc ["GET",100],["POST",2000],["GET",50],["get",null],["DELETE",0],["GET",300],["PUT",10],["GET",1234]
ds | sort by _time asc | project p = pack_array(method, bytes)
