// expect: sum of dur (real, missing skipped) = 2110.65 after rounding to 2 digits
ds | summarize s = round(sum(dur), 2)
