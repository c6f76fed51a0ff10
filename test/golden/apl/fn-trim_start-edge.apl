// expect: a="120", b="abc" (nothing to trim), c="" (all trimmed)
print a = trim_start("0", "00120"), b = trim_start("x", "abc"), c = trim_start("a", "aaa")
