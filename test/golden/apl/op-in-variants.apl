// expect: in is case-sensitive, in~ is not, !in on null city is true (engine choice) -> 1, 5, 3, 5
ds | summarize a = countif(method in ("get")), b = countif(method in~ ("get")), c = countif(method !in ("GET", "get")), d = countif(city !in ("Paris"))
