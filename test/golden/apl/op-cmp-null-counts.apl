// expect: ordering comparisons with null are null (not counted), != with one null side is true -> dur>42 4, >=42 5, ==42 1, !=42 7 (null counts), bytes<100 3, <=100 4
ds | summarize a = countif(dur > 42), b = countif(dur >= 42), c = countif(dur == 42), d = countif(dur != 42), e = countif(bytes < 100), f = countif(bytes <= 100)
