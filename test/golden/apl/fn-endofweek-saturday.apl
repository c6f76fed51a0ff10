// expect: week ends Saturday: a=2024-05-18T23:59:59.999999Z, b=2024-05-11T23:59:59.999999Z (n=-1)
print a = endofweek(datetime(2024-05-15T13:45:30Z)), b = endofweek(datetime(2024-05-15T13:45:30Z), -1)
