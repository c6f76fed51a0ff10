// expect: round(dur) half away from zero, missing -> null; asc 13,250,null,100,1000,6,42,701
ds | sort by _time asc | project r = round(dur)
