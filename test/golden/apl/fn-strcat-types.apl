// expect: s="1true2.5x", t="" (only empty/null)
print s = strcat(1, true, 2.5, "x"), t = strcat("", string(null))
