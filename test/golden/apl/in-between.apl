ds | where status in ("200", "404") and dur between (10 .. 100) | project _time, status, dur
