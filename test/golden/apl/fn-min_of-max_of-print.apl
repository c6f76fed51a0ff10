// expect: a=1, b=-1, c=2.5 (int promoted), d=-5
print a = min_of(3, 1, 2), b = max_of(-1, -5), c = max_of(1, 2.5), d = min_of(-5, 0)
