// Kusto: https://learn.microsoft.com/kusto/query/substring-function (examples) -- 23456, 34, AB, and a negative start counts from the end: 56
print a = substring("123456", 1), b = substring("123456", 2, 2), c = substring("ABCD", 0, 2), d = substring("123456", -2, 2)
