// expect: a=12, b=1, c=null
print a = getmonth(datetime(2024-12-31T23:59:59Z)), b = getmonth(datetime(2024-01-01)), c = getmonth(todatetime("bad"))
