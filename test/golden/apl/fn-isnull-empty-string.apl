// expect: "" is not null: a=false, b=true, c=false (0), d=true (typed null), e=false
print a = isnull(""), b = isnotnull(""), c = isnull(0), d = isnull(long(null)), e = isnotnull(datetime(null))
