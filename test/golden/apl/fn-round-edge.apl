// expect: half away from zero: a=3, b=-3, c=1.23, d=1, e=7 (integer)
print a = round(2.5), b = round(-2.5), c = round(1.2345, 2), d = round(0.5), e = round(7)
