// expect: the cell 89c259 as the first polygon of the page's GeoJSON collection (corners compared to 11 decimals); "a" -> null (source: https://learn.microsoft.com/kusto/query/geo-s2cell-neighbors-function, the page's example)
print p = geo_s2cell_to_polygon("89c259"), invalid = isnull(geo_s2cell_to_polygon("a"))
| mv-expand v = p.coordinates[0]
| project lng = round(todouble(v[0]), 11), lat = round(todouble(v[1]), 11), invalid
