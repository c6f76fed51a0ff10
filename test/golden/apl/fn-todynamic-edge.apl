// expect: a=2 (parsed path a[1]), b=null (invalid JSON), c=[1,2], d=3 (array length of parsed array)
print a = todynamic('{"a":[1,2]}').a[1], b = todynamic("not json"), c = todynamic("[1,2]"), d = array_length(todynamic("[1,2,3]"))
