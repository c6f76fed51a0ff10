// expect: values 4, 2, 6, 2 (null skipped): min 2 at 1, max 6 at 3, avg 3.5, stdev 1.9148542155126762, sample variance 11/3 = 3.6666666666666665 (Kusto's column order: stdev before variance) -> [2,1,6,3,3.5,1.9148542155126762,3.6666666666666665]
print s = dynamic([4, 2, null, 6, 2]) | extend series_stats(s) | project-away s
