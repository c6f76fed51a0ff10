// expect: timespan + datetime = datetime, datetime - timespan, timespan - timespan negative, number * timespan -> 05-02, 04-30, -01:00:00, 02:00:00
print a = 1d + datetime(2024-05-01), b = datetime(2024-05-01) - 1d, c = 1h - 2h, d = 2 * 1h
