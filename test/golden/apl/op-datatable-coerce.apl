// expect: a long in a real column is widened (2 -> real 2), typed nulls take the column's type, a dynamic column takes anything -> r:float, n:integer, d:integer|string; rows (2,-3,1,"real"), (2.5,null,"x","real"), (null,4,null,"null")
datatable(r:real, n:long, d:dynamic)[2, -3, 1, 2.5, long(null), "x", real(null), 4, dynamic(null)] | extend t = gettype(r)
