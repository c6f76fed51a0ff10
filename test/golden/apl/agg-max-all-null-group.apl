// expect: max(msg) per city; São Paulo only null msg -> null; null-city upstream timeout; Berlin user login ok; Paris user_login ok
ds | summarize m = max(msg) by city | sort by city asc
