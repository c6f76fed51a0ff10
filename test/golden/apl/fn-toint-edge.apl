// expect: a=42, b=-7, c=null ("abc"), d=2 (2.9 truncated), e=-2 (-2.9 toward zero), f=null (""), g=null (null)
print a = toint("42"), b = toint("-7"), c = toint("abc"), d = toint(2.9), e = toint(-2.9), f = toint(""), g = toint(real(null))
