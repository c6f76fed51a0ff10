// expect: matches regex is unanchored RE2, \w includes _ -> "upstream timeout", "Login failed", "user_login ok"
ds | where msg matches regex @"^\w+ \w+$" | project msg
