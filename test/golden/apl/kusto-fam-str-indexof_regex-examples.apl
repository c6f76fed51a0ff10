// expect: 0, 3, -1, -1, null (source: https://learn.microsoft.com/kusto/query/indexof-regex-function, the example). Arguments in Axiom's order indexof_regex(s, re [, start [, occurrence [, length]]]) (axiom.co/docs/apl/scalar-functions/string-functions/indexof-regex); Kusto's page writes length before occurrence: (0, 9, 2), (1, -1, 2), (0, -1, 2)
print
    idx1 = indexof_regex("abcabc", @"a.c"),
    idx2 = indexof_regex("abcabcdefg", @"a.c", 0, 2, 9),
    idx3 = indexof_regex("abcabc", @"a.c", 1, 2, -1),
    idx4 = indexof_regex("ababaa", @"a.a", 0, 2, -1),
    idx5 = indexof_regex("abcabc", @"a|ab", -1)
