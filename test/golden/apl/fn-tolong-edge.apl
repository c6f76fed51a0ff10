// expect: a=123456789012, b=-3 (-3.7 truncated toward zero), c=null (invalid "1x"), d=200
print a = tolong("123456789012"), b = tolong(-3.7), c = tolong("1x"), d = tolong("200")
