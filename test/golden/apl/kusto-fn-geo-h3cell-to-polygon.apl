// expect: the hexagon of 862a1072fffffff, closed, vertices compared to 12 decimals; "@" -> null (source: https://learn.microsoft.com/kusto/query/geo-h3cell-to-polygon-function, the page's example)
print p = geo_h3cell_to_polygon("862a1072fffffff"), invalid = isnull(geo_h3cell_to_polygon("@"))
| mv-expand v = p.coordinates[0]
| project lng = round(todouble(v[0]), 12), lat = round(todouble(v[1]), 12), invalid
