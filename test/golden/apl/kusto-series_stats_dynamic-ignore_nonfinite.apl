// expect: ignore_nonfinite=false with a null element -> every statistic null (len 3 is the array's length); true -> the null skipped: min 1 (idx 0), max 3 (idx 2), avg 2, stdev 1.4142135623730951, variance 2, sum 4 (source: https://learn.microsoft.com/kusto/query/series-stats-dynamic-function, parameter ignore_nonfinite: "The default is false, which returns null if non-finite values are present in the array")
print x = dynamic([1, null, 3])
| project strict = series_stats_dynamic(x, false), lenient = series_stats_dynamic(x, true)
| project strict_min = strict.min, strict_avg = strict.avg, strict_len = strict.len, lenient
