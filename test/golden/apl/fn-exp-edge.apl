// expect: a=1, b=2.718281828459045, c=null
print a = exp(0), b = exp(1), c = exp(real(null))
