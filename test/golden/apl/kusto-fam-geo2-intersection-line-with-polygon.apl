// expect: the page's line leaving a triangle -> a LineString from [-73.975611956578192, 40.78060906714618] to the line's end [-73.974552, 40.779761]; the page's line across a polygon with a hole -> a MultiLineString of two pieces, [-106.89353655881905, 39.769226209776306]–[-101.74448553679453, 40.373506008712525] and [-99.136499431328858, 40.589336512699994]–[-95.284527737311791, 40.799060242246348] (compared to 10 decimals); a line far away -> {"type": "GeometryCollection", "geometries": []}; an invalid line or polygon -> null (source: https://learn.microsoft.com/kusto/query/geo-intersection-line-with-polygon-function, the page's examples)
let triangle = dynamic({"type":"Polygon","coordinates":[[[-73.9712905883789,40.78580561168767],[-73.98004531860352,40.775276834803655],[-73.97000312805176,40.77852663535664],[-73.9712905883789,40.78580561168767]]]});
let one = geo_intersection_line_with_polygon(dynamic({"type":"LineString","coordinates":[[-73.985195,40.788275],[-73.974552,40.779761]]}), triangle);
let two = geo_intersection_line_with_polygon(dynamic({"type":"LineString","coordinates":[[-110.522, 39.198],[-91.428, 40.880]]}), dynamic({"type":"Polygon","coordinates":[[[-90.263,36.738],[-102.041,45.274],[-109.335,36.527],[-90.263,36.738]],[[-100.393,41.705],[-103.139,38.925],[-97.558,39.113],[-100.393,41.705]]]}));
print one_type = tostring(one.type),
  one_start = pack_array(round(todouble(one.coordinates[0][0]), 10), round(todouble(one.coordinates[0][1]), 10)),
  one_end = one.coordinates[1],
  two_type = tostring(two.type), two_pieces = array_length(two.coordinates),
  two_first = pack_array(round(todouble(two.coordinates[0][0][0]), 10), round(todouble(two.coordinates[0][0][1]), 10), round(todouble(two.coordinates[0][1][0]), 10), round(todouble(two.coordinates[0][1][1]), 10)),
  two_second = pack_array(round(todouble(two.coordinates[1][0][0]), 10), round(todouble(two.coordinates[1][0][1]), 10), round(todouble(two.coordinates[1][1][0]), 10), round(todouble(two.coordinates[1][1][1]), 10)),
  apart = geo_intersection_line_with_polygon(dynamic({"type":"LineString","coordinates":[[1, 1],[2, 2]]}), triangle),
  invalid_line = isnull(geo_intersection_line_with_polygon(dynamic({"type":"LineString","coordinates":[[-73.985195,40.788275]]}), triangle)),
  invalid_polygon = isnull(geo_intersection_line_with_polygon(dynamic({"type":"LineString","coordinates":[[-73.97159099578857,40.794513338780895],[-73.96738529205322,40.792758888618756]]}), dynamic({"type":"Polygon","coordinates":[]})))
