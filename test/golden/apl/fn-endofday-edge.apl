// expect: last instant at engine µs precision: a=2024-05-15T23:59:59.999999Z, b=2024-05-16T23:59:59.999999Z (n=1)
print a = endofday(datetime(2024-05-15T13:45:30Z)), b = endofday(datetime(2024-05-15T13:45:30Z), 1)
