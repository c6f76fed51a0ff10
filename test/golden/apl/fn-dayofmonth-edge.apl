// expect: a=29 (leap day), b=1, c=31
print a = dayofmonth(datetime(2024-02-29)), b = dayofmonth(datetime(2024-05-01)), c = dayofmonth(datetime(2024-12-31T23:59:59Z))
