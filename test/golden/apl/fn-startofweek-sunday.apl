// expect: weeks start Sunday: a=2024-05-12T00:00:00Z (Wed 15th), b=2024-05-19T00:00:00Z (n=1), c=2024-05-12T00:00:00Z (Sunday itself)
print a = startofweek(datetime(2024-05-15T13:45:30Z)), b = startofweek(datetime(2024-05-15T13:45:30Z), 1), c = startofweek(datetime(2024-05-12T08:00:00Z))
