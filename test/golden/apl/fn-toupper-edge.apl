// expect: a="SÃO", b="X_Y", c=null (null input)
print a = toupper("são"), b = toupper("x_y"), c = toupper(string(null))
