// expect: geo.* desc puts geo.country before geo.city, then req-id, then the rest in input order (dropped here); asc (FR,Paris,r1), (null,Berlin,r2), (null,null,r3)
nested | sort by _time asc | project-reorder geo.* desc, ['req-id'] | project-away _sysTime, _time, attributes.*, n, ['user name'], ['where']
