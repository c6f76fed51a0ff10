// expect: "1234567" -> [9.86830731850408, 27.468392925827604] (compared to 12 decimals); "a" -> null (source: https://learn.microsoft.com/kusto/query/geo-s2cell-to-central-point-function, the page's example)
print point = geo_s2cell_to_central_point("1234567"), invalid = geo_s2cell_to_central_point("a")
| project type = tostring(point.type), longitude = round(todouble(point.coordinates[0]), 12), latitude = round(todouble(point.coordinates[1]), 12), invalid
