// expect: the page draws the result as a chart; its text says filter [1,-1] (normalize false) gives the difference between a point and its preceding one: [0,0,0,0,2,0,0,0,1,0,0,0] for [0,0,0,0,2,2,2,2,3,3,3,3]; range from bin(now(), 1h) rewritten with a fixed datetime (t is not used by the filter) (source: https://learn.microsoft.com/kusto/query/series-fir-function)
range t from datetime(2024-05-01T00:00:00Z) - 11h to datetime(2024-05-01T00:00:00Z) step 1h
| summarize t=make_list(t)
| project id='TS', t, value=dynamic([0, 0, 0, 0, 2, 2, 2, 2, 3, 3, 3, 3])
| extend diff=series_fir(value, dynamic([1, -1]), false, false)
| project id, points = array_length(t), value, diff
