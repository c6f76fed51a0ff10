// expect: a=isnull(city) true for missing (e2) and null (e8); b=isnotnull(msg) false only for e5 (null); asc: a=F,T,F,F,F,F,F,T b=T,T,T,T,F,T,T,T
ds | sort by _time asc | project a = isnull(city), b = isnotnull(msg)
