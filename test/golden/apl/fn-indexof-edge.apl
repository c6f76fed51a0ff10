// expect: a=2, b=-1 (absent), c=3 (from start 3), d=3 (2nd occurrence), e=-1 (start past end)
print a = indexof("hello", "l"), b = indexof("hello", "z"), c = indexof("hello", "l", 3), d = indexof("hello", "l", 0, -1, 2), e = indexof("hello", "l", 10)
