// expect: a=4, b=null (negative), c=1.5, d=0
print a = sqrt(16), b = sqrt(-1), c = sqrt(2.25), d = sqrt(0)
