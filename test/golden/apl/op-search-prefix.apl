// expect: search "log*" = a term starting with log -> "user login ok", "Login failed", "user_login ok" newest first
ds | search "log*" | project msg
