// expect: the fraction of the line nearest to (-73.965, 40.792) -> 0.25560135100307552 (compared to 12 decimals); a one-point line -> null (source: https://learn.microsoft.com/kusto/query/geo-line-locate-point-function, the page's examples)
let line = dynamic({"type":"LineString","coordinates":[[-73.95796, 40.80042], [-73.97317, 40.764486]]});
print fraction = round(geo_line_locate_point(line, -73.965, 40.792), 12), is_bad_line = isnull(geo_line_locate_point(dynamic({"type":"LineString","coordinates":[[1, 1]]}), 1, 1))
