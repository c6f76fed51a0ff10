// expect: minutes since midnight; asc 10,20,50,65,90,120,135,225
ds | sort by _time asc | project m = datetime_diff("minute", _time, datetime(2024-05-01T00:00:00Z))
