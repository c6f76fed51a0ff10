// expect: true, true, true, true (source: https://learn.microsoft.com/kusto/query/tobool-function, the example)
print a = tobool("true") == true, b = tobool("false") == false, c = tobool(1) == true, d = tobool(123) == true
