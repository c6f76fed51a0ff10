// expect: dcountif_city over status 200: Paris,Paris,Berlin -> 2; b never true -> 0
ds | summarize dcountif(city, toint(status) == 200), b = dcountif(city, false)
