// expect: empty string skipped for strings: a="b", b="c" (null and "" skipped), c=5, d=null (all null)
print a = coalesce("", "b"), b = coalesce(string(null), "", "c"), c = coalesce(int(null), 5), d = coalesce(real(null), real(null))
