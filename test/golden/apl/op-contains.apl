// expect: contains is case-insensitive substring -> "user login ok", "Login failed", "user_login ok"
ds | where msg contains "LOG" | project msg
