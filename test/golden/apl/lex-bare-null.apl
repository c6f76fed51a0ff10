// expect: bare null is a null literal: isnull true, coalesce skips it -> [true,"x"]
print a = isnull(null), b = coalesce(null, "x")
