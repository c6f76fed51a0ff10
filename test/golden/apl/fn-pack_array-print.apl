// expect: a=[1,"x",2.5], b=[[1,2]] (nested dynamic), c=1 (pack_array(0,1)[1])
print a = pack_array(1, "x", 2.5), b = pack_array(dynamic([1, 2])), c = pack_array(0, 1)[1]
