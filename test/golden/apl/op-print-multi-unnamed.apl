// expect: unnamed print items are numbered print_0, print_1 over the unnamed items -> print_0 1, x "a", print_1 true
print 1, x = "a", 2 > 1
