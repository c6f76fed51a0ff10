// expect: flags=U (RE2 ungreedy) makes (.+) stop at the first space, so rest takes everything after it: "user login ok" -> "login ok" (greedy would give "ok"); rows with no space are dropped -> newest first timeout, login ok, failed, key=42, disk full, ok
ds | parse kind=regex flags=U msg with "(.+)" " " rest | where isnotempty(rest) | project msg, rest
