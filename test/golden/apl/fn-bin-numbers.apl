// expect: floor(x/size)*size: a=15, b=-5, c=2.5, d=-1
print a = bin(17, 5), b = bin(-3, 5), c = bin(2.75, 0.5), d = bin(-0.5, 1)
