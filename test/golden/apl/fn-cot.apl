// expect: cot(1) = 1/tan(1) = 0.642092615934 -> 0.642093; cot(0) is infinite -> null -> [0.642093,null]
print a = round(cot(1.0), 6), b = cot(0.0)
