// expect: long op long = long, long op real = real; % truncates toward zero -> 9, 9.0, 10.5, 1, -1, -2
print a = 7 + 2, b = 7 + 2.0, c = 7 * 1.5, d = 7 % 3, e = -7 % 3, f = -(2)
