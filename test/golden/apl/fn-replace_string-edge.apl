// expect: a="bbnbnb", b="xa" (non-overlapping), c="abc" (no match), d=null (null input)
print a = replace_string("a", "b", "banana"), b = replace_string("aa", "x", "aaa"), c = replace_string("z", "y", "abc"), d = replace_string("a", "b", string(null))
