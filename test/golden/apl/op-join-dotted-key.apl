// expect: join keys may be dotted names ($left.geo.city); the event without geo has a null key, which never matches -> (Berlin,Berlin,"2"), (Paris,Paris,1)
nested | join kind=inner (nested | project c = geo.city, n2 = n) on $left.geo.city == $right.c | project geo.city, c, n2 | sort by c asc
