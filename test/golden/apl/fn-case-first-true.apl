// expect: first true predicate wins, else last arg: x="a", y=3, z="else" (null predicate skipped)
print x = case(1 < 2, "a", 2 < 3, "b", "c"), y = case(false, 1, false, 2, 3), z = case(bool(null), "n", "else")
