// expect: a="a-b-1", b=",x" (empty first part kept), c="x||y" (null part -> "")
print a = strcat_delim("-", "a", "b", 1), b = strcat_delim(",", "", "x"), c = strcat_delim("|", "x", string(null), "y")
