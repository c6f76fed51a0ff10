// expect: a=3, b=2.5, c=0, d=null
print a = abs(-3), b = abs(-2.5), c = abs(0), d = abs(long(null))
