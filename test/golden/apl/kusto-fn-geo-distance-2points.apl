// expect: Seattle to Los Angeles -> 1546754.35197381 m (rounded to the page's 8 decimals); longitude 300 -> null (source: https://learn.microsoft.com/kusto/query/geo-distance-2points-function, the page's example)
print distance_in_meters = round(geo_distance_2points(-122.407628, 47.578557, -118.275287, 34.019056), 8), invalid = geo_distance_2points(300,1,1,1)
