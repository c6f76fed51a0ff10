// expect: replace(regex) alias: digits -> #; asc user_login ok, ERROR: disk full, cache_miss key=##, Login failed, null, user login ok, moved, upstream timeout
ds | sort by _time asc | project m = replace("[0-9]", "#", msg)
