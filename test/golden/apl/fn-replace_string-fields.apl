// expect: "_" -> " " in msg; null msg stays null; asc user login ok, ERROR: disk full, cache miss key=42, Login failed, null, user login ok, moved, upstream timeout
ds | sort by _time asc | project m = replace_string("_", " ", msg)
