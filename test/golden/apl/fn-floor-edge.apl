// expect: a=2, b=-3, c=5 (floor(x,size)=bin), d=-10, e=null
print a = floor(2.7), b = floor(-2.1), c = floor(7, 5), d = floor(-7, 5), e = floor(real(null))
