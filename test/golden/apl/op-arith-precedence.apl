// expect: * before +, left-assoc -, and before or, unary minus -> 14, 20, 3, true, -6
print a = 2 + 3 * 4, b = (2 + 3) * 4, c = 10 - 4 - 3, d = true or false and false, e = -2 * 3
