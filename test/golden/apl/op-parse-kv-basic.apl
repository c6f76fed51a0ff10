// expect: a=1 as long; " b = two " trimmed; quoted "x;y" keeps the delimiter; "d" has no = so d is null; e absent -> [1,"two","x;y",null,null]
print s = "a=1; b = two ; c=\"x;y\"; d" | parse-kv s as (a:long, b, c, d, e) with (pair_delimiter=";", kv_delimiter="=", quote="\"") | project-away s
