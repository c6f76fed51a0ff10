// expect: Kusto tuple names for the seven series_stats columns; values 4, 2, 6, 2 (null skipped): min 2, max 6, avg 3.5 -> [2,6,3.5]
print s = dynamic([4, 2, null, 6, 2]) | extend (mn, mni, mx, mxi, av, va, sd) = series_stats(s) | project mn, mx, av
