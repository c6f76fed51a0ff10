// Kusto: https://learn.microsoft.com/kusto/query/split-function (example) -- ["aa","bb"], ["bbb"], [""], ["a","","b"], ["aa","cc"]
print
    split("aa_bb", "_"),
    split("aaa_bbb_ccc", "_", 1),
    split("", "_"),
    split("a__b", "_"),
    split("aabbcc", "bb")
