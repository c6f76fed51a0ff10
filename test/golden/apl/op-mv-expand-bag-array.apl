// expect: kind=array turns each bag entry into [key, value] -> [["k1",1]], [["k2","v"]]
print d = dynamic({"k1": 1, "k2": "v"}) | mv-expand kind=array d
