// expect: b={"a":1,"b":"x"}; v=1 via b.a; k=null for missing key
print b = bag_pack("a", 1, "b", "x"), v = bag_pack("a", 1).a, k = bag_pack("a", 1).zz
