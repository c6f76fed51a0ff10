// expect: arg_min(dur, *) returns the whole row of min dur (e6): dur 5.5, method GET, status 200, city Berlin
ds | summarize arg_min(dur, *) | project dur, method, status, city
