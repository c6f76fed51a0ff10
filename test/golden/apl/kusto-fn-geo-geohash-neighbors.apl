// expect: neighbors of "sunny" in the page's order; "a" -> null (source: https://learn.microsoft.com/kusto/query/geo-geohash-neighbors-function, the page's example)
print neighbors = geo_geohash_neighbors('sunny'), invalid = isnull(geo_geohash_neighbors('a'))
