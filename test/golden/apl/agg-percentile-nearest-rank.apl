// expect: bytes sorted 0,10,50,100,300,1234,2000: p50 rank ceil(3.5)=4 -> 100 (percentile_bytes), p90 rank 7 -> 2000 (percentile_bytes_90)
ds | summarize percentile(bytes, 50), percentile(bytes, 90)
