// expect: series_exp([1,2,3]) is [2.7182818284590451,7.38905609893065,20.085536923187668] (source: https://learn.microsoft.com/kusto/query/series-exp-function)
print s = dynamic([1,2,3])
| extend s_exp = series_exp(s)
