// expect: a=["a","b","","c"], b=["","a",""] (leading/trailing empties kept), c=["abc"] (no delim), d=["b"] (index 1, Kusto returns one-element array)
print a = split("a,b,,c", ","), b = split(",a,", ","), c = split("abc", ","), d = split("a-b-c", "-", 1)
