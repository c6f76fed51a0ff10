// expect: the page's 20 km buffer about [-115.1745008278, 36.1497251277] is a Polygon; a point 19990 m due north is inside, one 20011 m north (past radius + the default 10 m tolerance) is outside; its area lies between the caps of radius 20000 and 20010 m (1256.64 and 1257.9 km²); the page's union of two point buffers is a MultiPolygon; invalid point (200) -> null, invalid radius (-1) -> null, tolerance below 0.0001% of the radius -> null (source: https://learn.microsoft.com/kusto/query/geo-point-buffer-function; the page prints the coordinates as "[ ... ]", so the buffer is checked by containment and area, not by its vertices)
let b = geo_point_buffer(-115.1745008278, 36.1497251277, 20000);
let u = toscalar(datatable(longitude:real, latitude:real, radius:real)
[
    real(-80.3212217992616), 25.268683367546604, 5000,
    real(-80.81717403605833), 24.82658441221962, 3000
]
| project buffer = geo_point_buffer(longitude, latitude, radius)
| summarize polygons = make_list(buffer)
| project result = geo_union_polygons_array(polygons));
print type = tostring(b.type),
  inside_19990m = geo_point_in_polygon(-115.1745008278, 36.1497251277 + degrees(19990.0 / 6371010), b),
  outside_20011m = geo_point_in_polygon(-115.1745008278, 36.1497251277 + degrees(20011.0 / 6371010), b),
  area_within_tolerance = geo_polygon_area(b) between (1256.64e6 .. 1257.9e6),
  union_type = tostring(u.type), union_parts = array_length(u.coordinates),
  bad_point = isnull(geo_point_buffer(200, 1, 0.1)),
  bad_radius = isnull(geo_point_buffer(10, 10, -1)),
  tiny_tolerance = isnull(geo_point_buffer(10, 10, 1000000, 0.5))
