// expect: "sunny" -> Point [42.47314453125, 23.70849609375]; "a" is not a geohash -> null (source: https://learn.microsoft.com/kusto/query/geo-geohash-to-central-point-function, the page's example)
print point = geo_geohash_to_central_point("sunny"), invalid = geo_geohash_to_central_point("a")
| extend longitude = point.coordinates[0], latitude = point.coordinates[1]
