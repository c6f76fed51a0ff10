// expect: a="ell", b="llo" (to end), c="" (start past end), d="lo" (len clipped), e="" (empty input)
print a = substring("hello", 1, 3), b = substring("hello", 2), c = substring("hello", 10), d = substring("hello", 3, 100), e = substring("", 0, 1)
