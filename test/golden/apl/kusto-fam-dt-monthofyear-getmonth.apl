// expect: monthofyear("2015-12-14") 12, getmonth(2015-10-12) 10 (source: https://learn.microsoft.com/kusto/query/monthofyear-function, https://learn.microsoft.com/kusto/query/getmonth-function)
print result = monthofyear(datetime("2015-12-14")), month = getmonth(datetime(2015-10-12))
