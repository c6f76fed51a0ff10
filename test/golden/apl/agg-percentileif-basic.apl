// expect: percentileif_bytes p50 over method=~"get": values 100,50,(null),300,1234 -> sorted 50,100,300,1234 rank 2 -> 100
ds | summarize percentileif(bytes, 50, method =~ "get")
