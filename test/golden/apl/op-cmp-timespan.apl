// expect: timespan comparisons -> true, true, true, true
print a = 90m > 1h, b = 1d == 24h, c = 30s <= 0.5m, d = -1h < 0s
