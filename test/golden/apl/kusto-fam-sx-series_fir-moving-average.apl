// expect: the page draws the result as a chart and states it: the 5-point moving average (filter [1,1,1,1,1], normalize default true) smooths the spike at index 12 and shifts its peak by (5-1)/2 = 2 (max_idx 14); with center=true the peak stays at 12; checked as the peak index and value (44) of each series; range from bin(now(), 1h) rewritten with a fixed datetime (t is not used by the filter); the page's column names start with digits (`5h_MovingAvg`): a word of digits then letters with an `_` is a name, not a timespan (source: https://learn.microsoft.com/kusto/query/series-fir-function)
range t from datetime(2024-05-01T00:00:00Z) - 23h to datetime(2024-05-01T00:00:00Z) step 1h
| summarize t=make_list(t)
| project
    id='TS',
    val=dynamic([0, 0, 0, 0, 0, 0, 0, 0, 0, 10, 20, 40, 100, 40, 20, 10, 0, 0, 0, 0, 0, 0, 0, 0]),
    t
| extend
    5h_MovingAvg=series_fir(val, dynamic([1, 1, 1, 1, 1])),
    5h_MovingAvg_centered=series_fir(val, dynamic([1, 1, 1, 1, 1]), true, true)
| project id, points = array_length(t), peak = series_stats_dynamic(5h_MovingAvg).max_idx, peak_value = series_stats_dynamic(5h_MovingAvg).max, peak_centered = series_stats_dynamic(5h_MovingAvg_centered).max_idx, peak_value_centered = series_stats_dynamic(5h_MovingAvg_centered).max
