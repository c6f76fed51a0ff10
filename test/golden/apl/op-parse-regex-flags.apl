// expect: flags=i makes the regex case-insensitive, so "Login failed" matches too (without it only the two lower-case "login" rows do); rest is the text after the space: (user login ok, ok), (Login failed, failed), (user_login ok, ok) newest first
ds | parse-where kind=regex flags=i msg with "(login|error)" " " rest | project msg, rest
