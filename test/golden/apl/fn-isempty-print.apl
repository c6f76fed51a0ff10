// expect: a=isempty("") true, b=isempty(" ") false, c=isnotempty("") false, d=isnotempty("x") true, e=isempty(string(null)) true
print a = isempty(""), b = isempty(" "), c = isnotempty(""), d = isnotempty("x"), e = isempty(string(null))
