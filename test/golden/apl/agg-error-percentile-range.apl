// expect: a percentile rank outside 0..100 is an invalid argument: error invalid apl_invalid_argument
ds | summarize percentile(dur, 150)
