// expect: natural log; a=0, b=null (0), c=null (negative), d=2
print a = log(1), b = log(0), c = log(-1), d = log(exp(2))
