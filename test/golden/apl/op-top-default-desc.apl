// expect: top defaults to desc -> 2000 POST, 1234 GET, 300 GET
ds | top 3 by bytes | project bytes, method
