// expect: a="ab-c" (cutset both ends), b="axb" (set xy), c="" (empty), d=null
print a = trim("-", "--ab-c--"), b = trim("xy", "xyaxby"), c = trim(" ", ""), d = trim("x", string(null))
