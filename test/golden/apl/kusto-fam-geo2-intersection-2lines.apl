// expect: two crossing Manhattan lines meet in the Point [-73.979837116670978, 40.783989289772165] (compared to 12 decimals); a line with itself -> {"type": "LineString", "coordinates": [[-73.978929, 40.785155], [-73.980903, 40.782621]]}; lines that do not meet -> {"type": "GeometryCollection", "geometries": []}; an invalid line -> null (source: https://learn.microsoft.com/kusto/query/geo-intersection-2lines-function, the page's examples)
let lineString1 = dynamic({"type":"LineString","coordinates":[[-73.978929,40.785155],[-73.980903,40.782621]]});
let lineString2 = dynamic({"type":"LineString","coordinates":[[-73.985195,40.788275],[-73.974552,40.779761]]});
let p = geo_intersection_2lines(lineString1, lineString2);
print type = tostring(p.type), lng = round(todouble(p.coordinates[0]), 12), lat = round(todouble(p.coordinates[1]), 12),
  same = geo_intersection_2lines(lineString1, lineString1),
  apart = geo_intersection_2lines(dynamic({"type":"LineString","coordinates":[[1, 1],[2, 2]]}), dynamic({"type":"LineString","coordinates":[[3, 3],[4, 4]]})),
  invalid = isnull(geo_intersection_2lines(dynamic({"type":"LineString","coordinates":[[1, 1],[2, 2]]}), dynamic({"type":"LineString","coordinates":[[3, 3]]})))
