// expect: a=1024, b=0.5, c=1 (0^0), d=null (NaN from negative base, fractional exponent)
print a = pow(2, 10), b = pow(2, -1), c = pow(0, 0), d = pow(-8, 0.5)
