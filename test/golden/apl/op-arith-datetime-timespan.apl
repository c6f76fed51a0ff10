// expect: datetime - datetime = timespan, datetime + timespan = datetime, timespan / timespan = real, timespan * n = timespan -> 01:30:00, 01:00Z, 150, 24, 00:30:00
print a = datetime(2024-05-01T10:00:00Z) - datetime(2024-05-01T08:30:00Z), b = datetime(2024-05-01) + 1h, c = (2h + 30m) / 1m, d = 1d / 1h, e = 10m * 3
