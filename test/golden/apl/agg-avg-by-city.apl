// expect: null group (250.25,700.5)=475.375; Berlin (missing, 5.5)=5.5; Paris (12.5,99.9,42)=51.46666666666667; São Paulo 1000
ds | summarize a = avg(dur) by city | sort by city asc
