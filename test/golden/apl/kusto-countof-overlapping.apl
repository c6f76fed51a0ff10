// Kusto: https://learn.microsoft.com/kusto/query/countof-function (normal examples) -- plain matches overlap: 3, 3 (not 2), 2, 2; arguments in Axiom's order countof(search, text) (docs/apl.md)
print a = countof("a", "aaa"), b = countof("aa", "aaaa"), c = countof("ab", "ababa"), d = countof("aba", "ababa")
