// expect: first non-null non-empty: c=city else msg else "none"; d=dur else toreal(bytes); asc rows: (Paris,12.5),(ERROR: disk full,250.25),(Berlin,50),(Paris,99.9),(São Paulo,1000),(Berlin,5.5),(Paris,42),(upstream timeout,700.5)
ds | sort by _time asc | project c = coalesce(city, msg, "none"), d = coalesce(dur, toreal(bytes))
