// expect: a=2024-05-31T23:59:59.999999Z, b=2024-02-29T23:59:59.999999Z (leap year)
print a = endofmonth(datetime(2024-05-15T13:45:30Z)), b = endofmonth(datetime(2024-02-10))
