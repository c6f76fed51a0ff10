// expect: has_cs is case-sensitive, has is not -> 4, 2, 3
ds | summarize a = countif(method has_cs "GET"), b = countif(msg has_cs "login"), c = countif(msg has "LOGIN")
