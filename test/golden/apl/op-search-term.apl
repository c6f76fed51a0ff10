// expect: search "x" is has over every field, case-insensitive -> the 3 Paris rows
ds | search "paris" | count
