// expect: a=-1, b=0, c=1, d=null
print a = sign(-7), b = sign(0), c = sign(2.5), d = sign(real(null))
