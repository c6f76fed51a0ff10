// expect: "862a1072fffffff" -> [-74.016008479792447, 40.7041679083504] (compared to 12 decimals); "1" -> null (source: https://learn.microsoft.com/kusto/query/geo-h3cell-to-central-point-function, the page's example)
print h3cell = geo_h3cell_to_central_point("862a1072fffffff"), invalid = geo_h3cell_to_central_point("1")
| project type = tostring(h3cell.type), longitude = round(todouble(h3cell.coordinates[0]), 12), latitude = round(todouble(h3cell.coordinates[1]), 12), invalid
