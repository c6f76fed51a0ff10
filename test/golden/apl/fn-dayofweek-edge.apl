// expect: days since Sunday as long: a=0 (Sun 2024-05-12), b=3 (Wed), c=6 (Sat), d=null
print a = dayofweek(datetime(2024-05-12)), b = dayofweek(datetime(2024-05-15)), c = dayofweek(datetime(2024-05-18T23:00:00Z)), d = dayofweek(datetime(null))
