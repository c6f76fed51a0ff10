// expect: "us*ok" = regex (?i)\bus.*ok\b on the row text: "user_login ok", "user login ok" -> ["user login ok"], ["user_login ok"]
ds | search "us*ok" | project msg | sort by msg asc
