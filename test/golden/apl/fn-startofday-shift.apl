// expect: a=2024-05-15T00:00:00Z, b=2024-05-14T00:00:00Z (n=-1), c=null
print a = startofday(datetime(2024-05-15T13:45:30Z)), b = startofday(datetime(2024-05-15T13:45:30Z), -1), c = startofday(datetime(null))
