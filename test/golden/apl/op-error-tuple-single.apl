// expect: (a, b, ...) = only for functions that return several columns; strlen returns one: error invalid apl_invalid_argument
print y = "x" | extend (a, b) = strlen(y)
