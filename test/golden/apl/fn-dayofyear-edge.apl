// expect: a=366 (leap 2024-12-31), b=365 (2023-12-31), c=1
print a = dayofyear(datetime(2024-12-31)), b = dayofyear(datetime(2023-12-31)), c = dayofyear(datetime(2024-01-01))
