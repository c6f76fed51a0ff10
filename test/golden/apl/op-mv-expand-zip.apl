// expect: a and b expanded together, b padded with null, c copied -> [1,"x",7], [2,"y",7], [3,null,7]
print a = dynamic([1, 2, 3]), b = dynamic(["x", "y"]), c = 7 | mv-expand a, b
