// expect: a=2.5, b=null (invalid), c=3, d=-1000, e=null (empty string)
print a = toreal("2.5"), b = toreal("x"), c = toreal(3), d = toreal("-1e3"), e = toreal("")
