// expect: integer / truncates toward zero; int division/modulo by 0 null; real /0 inf renders null -> 3, -3, 3.5, null, null, null
print a = 7 / 2, b = -7 / 2, c = 7 / 2.0, d = 7 / 0, e = 7.0 / 0, f = 7 % 0
