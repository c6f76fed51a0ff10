// expect: a=20 (negative index -1), b="oops" (invalid JSON -> original string), c={"x":null}, d=null path missing
print a = parse_json('{"a":{"b":[10,20]}}').a.b[-1], b = parse_json("oops"), c = parse_json('{"x":null}'), d = parse_json('{"a":1}').zz
