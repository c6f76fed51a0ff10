// Kusto: https://learn.microsoft.com/kusto/query/series-stats-function (example) -- columns series_stats_x_min, _min_idx, _max, _max_idx, _avg, _stdev, _variance (stdev before variance): 2, 8, 87, 3, 32.8, 28.5036338535483, 812.457142857143 (the full doubles from series-stats-dynamic-function: 28.503633853548269, 812.45714285714291, written shortest)
print x=dynamic([23, 46, 23, 87, 4, 8, 3, 75, 2, 56, 13, 75, 32, 16, 29])
| project series_stats(x)
