// expect: sumif_bytes over method=="GET" (case-sensitive): 100+50+300+1234=1684; b no rows -> 0
ds | summarize sumif(bytes, method == "GET"), b = sumif(bytes, method == "PATCH")
