// expect: print makes one row; unnamed item print_0 -> [3,"ab"]
print 1 + 2, b = strcat("a", "b")
