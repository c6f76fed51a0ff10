// expect: a=2024-12-31T23:59:59.999999Z, b=2023-12-31T23:59:59.999999Z (n=-1)
print a = endofyear(datetime(2024-05-15T13:45:30Z)), b = endofyear(datetime(2024-05-15T13:45:30Z), -1)
