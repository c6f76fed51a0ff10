// expect: a="a b", b="", c="", d=null
print a = trim_space("  a b \t"), b = trim_space(""), c = trim_space("   "), d = trim_space(string(null))
