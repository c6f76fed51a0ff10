// expect: a=3, b=null (0), c=null (negative), d=-2
print a = log10(1000), b = log10(0), c = log10(-5), d = log10(0.01)
