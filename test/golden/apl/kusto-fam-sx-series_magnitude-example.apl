// expect: series_magnitude([1,2,3,4]) is 5.4772255750516612 (source: https://learn.microsoft.com/kusto/query/series-magnitude-function)
print arr=dynamic([1,2,3,4])
| extend series_magnitude=series_magnitude(arr)
