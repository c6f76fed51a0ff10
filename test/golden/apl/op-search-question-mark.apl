// expect: "l?gin" = regex (?i)\bl.gin\b; "user_login" has no word boundary before l ("_" is a word character) -> ["Login failed"], ["user login ok"]
ds | search "l?gin" | project msg | sort by msg asc
