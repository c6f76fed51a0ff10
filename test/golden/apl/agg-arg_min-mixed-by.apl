// expect: per city the row with the smallest bytes; retry is a long in one batch and a string in the next, so the column is long|string: null city -> 1234 (retry 2), Berlin -> 50 (retry 0), Paris -> 10 (no retry), São Paulo -> 0 ("x"); none of those rows has tags
ds | summarize arg_min(bytes, retry, tags) by city | sort by city asc
