// expect: isempty(null or missing city)=true for e2,e8; isnotempty(msg) false for e5; isempty(tostring(retry)) true only for e7 (missing -> ""); asc a=F,T,F,F,F,F,F,T b=T,T,T,T,F,T,T,T c=F,F,F,F,F,F,T,F
ds | sort by _time asc | project a = isempty(city), b = isnotempty(msg), c = isempty(tostring(retry))
