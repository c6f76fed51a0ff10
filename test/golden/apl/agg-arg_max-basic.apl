// expect: row with max bytes (e2): bytes 2000, method POST, city null
ds | summarize arg_max(bytes, method, city)
