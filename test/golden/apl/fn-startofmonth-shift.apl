// expect: a=2024-05-01T00:00:00Z, b=2023-12-01T00:00:00Z (n=-5 crosses year)
print a = startofmonth(datetime(2024-05-15T13:45:30Z)), b = startofmonth(datetime(2024-05-15T13:45:30Z), -5)
