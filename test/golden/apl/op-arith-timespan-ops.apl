// expect: timespan / number and % timespan are timespans, unary minus -> 00:30:00, 00:30:00, -01:00:00, 02:30:00
print a = 1h / 2, b = 90m % 1h, c = -(1h), d = 2h + 30m
