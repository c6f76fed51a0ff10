// expect: "dr5ru" -> its rectangle, counterclockwise from the south-west corner; "a" -> null (source: https://learn.microsoft.com/kusto/query/geo-geohash-to-polygon-function, the page's example)
print GeohashPolygon = geo_geohash_to_polygon("dr5ru"), invalid = geo_geohash_to_polygon("a")
