// expect: geo.* keeps the flattened geo fields, geo.city is not repeated; in input order geo.city, geo.country, req-id; asc (Paris,FR,r1), (Berlin,null,r2), (null,null,r3)
nested | sort by _time asc | project-keep geo.*, geo.city, ['req-id']
