// expect: inclusive sequences; negative step; real step; datetimes with 1h; stop before start -> [[1,2,3,4,5],[10,6,2],[1,1.5,2],["2024-05-01T00:00:00Z","2024-05-01T01:00:00Z","2024-05-01T02:00:00Z"],[]]
print a = range(1, 5), b = range(10, 1, -4), c = range(1, 2, 0.5), d = range(datetime(2024-05-01), datetime(2024-05-01 02:00), 1h), e = range(5, 1)
