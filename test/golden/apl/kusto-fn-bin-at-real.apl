// expect: 6.5 in bins of 2.5 aligned to 7 -> 4.5 (source: https://learn.microsoft.com/kusto/query/bin-at-function, the page's example)
print bin_at(6.5, 2.5, 7)
