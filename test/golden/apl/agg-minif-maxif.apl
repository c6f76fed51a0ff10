// expect: over status>=500 bytes 2000,0,1234: minif_bytes 0, maxif_bytes 2000; c maxif no rows -> null
ds | summarize minif(bytes, toint(status) >= 500), maxif(bytes, toint(status) >= 500), c = maxif(dur, method == "PATCH")
