// expect: a multi-term RHS matches consecutive whole terms whatever separates them -> "user login ok", "user_login ok"
ds | where msg has "login ok" | project msg
