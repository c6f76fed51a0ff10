// expect: sample (n-1) over bytes 0,10,50,100,300,1234,2000: stdev_bytes 782.7280741708695, variance_bytes 612663.238095238 (python 612663.2380952381; engine 612663.2380952382, last-ulp float rounding of merged moments)
ds | summarize stdev(bytes), variance(bytes)
