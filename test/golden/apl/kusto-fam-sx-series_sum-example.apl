// expect: series_sum([1,2,3,4]) is 10 (source: https://learn.microsoft.com/kusto/query/series-sum-function)
print arr=dynamic([1,2,3,4])
| extend series_sum=series_sum(arr)
