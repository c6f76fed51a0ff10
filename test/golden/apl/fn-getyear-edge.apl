// expect: a=2024, b=1999
print a = getyear(datetime(2024-05-15T13:45:30Z)), b = getyear(datetime(1999-12-31T23:59:59Z))
