// expect: a=2024-01-01T00:00:00Z, b=2025-01-01T00:00:00Z
print a = startofyear(datetime(2024-05-15T13:45:30Z)), b = startofyear(datetime(2024-05-15T13:45:30Z), 1)
