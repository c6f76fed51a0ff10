// expect: a=3, b=-2, c=3, d=null
print a = ceiling(2.1), b = ceiling(-2.9), c = ceiling(3), d = ceiling(real(null))
