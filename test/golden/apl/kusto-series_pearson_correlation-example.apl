// expect: s1 [1,2,3,4,5], s2 [2,4,6,8,10], correlation_coefficient 1 (source: https://learn.microsoft.com/kusto/query/series-pearson-correlation-function, the page's example)
range s1 from 1 to 5 step 1
| extend s2 = 2 * s1 // Perfect correlation
| summarize s1 = make_list(s1), s2 = make_list(s2)
| extend correlation_coefficient = series_pearson_correlation(s1, s2)
