// expect: where * has tests every column text case-insensitively: the 3 Paris rows -> count 3
ds | where * has "paris" | count
