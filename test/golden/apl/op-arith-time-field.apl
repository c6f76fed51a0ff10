// expect: (_time - datetime) / 1m gives real minutes -> 10, 20, 50, 65, 90, 120, 135, 225
ds | project mins = (_time - datetime(2024-05-01)) / 1m | sort by mins asc
