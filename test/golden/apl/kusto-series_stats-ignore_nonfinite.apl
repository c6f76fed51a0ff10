// expect: series_stats(x, true) skips the null: mn 1, mn_idx 0, mx 3; series_stats(x, false) with a null element -> strict_min, strict_avg null; the ignore_nonfinite flag in the multi-column form -> [1,0,3,null,null] (source: https://learn.microsoft.com/kusto/query/series-stats-function, parameter ignore_nonfinite: "The default is false, which will result in null if non-finite values are present")
print x = dynamic([1, null, 3])
| extend (mn, mn_idx, mx) = series_stats(x, true)
| extend (strict_min, strict_min_idx, strict_max, strict_max_idx, strict_avg) = series_stats(x, false)
| project mn, mn_idx, mx, strict_min, strict_avg
