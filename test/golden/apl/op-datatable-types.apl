// expect: datatable values row-major with typed columns -> ["x",1,1.5,"2024-01-01T00:00:00Z"] (b true)
datatable(s:string, n:long, r:real, b:bool, d:datetime)["x", 1, 1.5, true, datetime(2024-01-01), "y", 2, 2.5, false, datetime(2024-01-02)] | where b | project s, n, r, d
