// expect: kind=case_sensitive turns has into has_cs -> 4 (the "get" row excluded)
ds | search kind=case_sensitive "GET" | count
