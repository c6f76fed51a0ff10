// expect: the same statistics as a bag: [1, 3] -> min 1 at 0, max 3 at 1, avg 2, variance 2, stdev sqrt 2 -> [{"min":1,"min_idx":0,"max":3,"max_idx":1,"avg":2,"variance":2,"stdev":1.4142135623730951}]
print d = series_stats_dynamic(dynamic([1, 3]))
