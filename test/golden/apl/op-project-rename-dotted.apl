// expect: project-rename takes dotted and quoted names on both sides and keeps positions: city (was geo.city) before u.n (was user name); asc (Paris,ann), (Berlin,bob), (null,null)
nested | sort by _time asc | project-rename city = geo.city, ['u.n'] = ['user name'] | project-keep city, ['u.n']
