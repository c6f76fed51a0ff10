// Kusto: https://learn.microsoft.com/kusto/query/toint-function and round-function (examples) -- toint("123") == 123, toint(2.3) is 2; round 2.988, 2.2, 2, -100, 20
print a = toint("123") == 123, b = toint(2.3), c = round(2.98765, 3), d = round(2.15, 1), e = round(2.15), f = round(-50.55, -2), g = round(21.5, -1)
