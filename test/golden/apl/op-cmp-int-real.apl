// expect: comparisons between int and real -> true, true, true, false
print a = 1 == 1.0, b = 2 < 2.5, c = 3 >= 3.0, d = 2 != 2.0
