// expect: a="àbc" (unicode), b="" (empty), c="ABC1"
print a = tolower("ÀBC"), b = toupper(""), c = toupper("abc1")
