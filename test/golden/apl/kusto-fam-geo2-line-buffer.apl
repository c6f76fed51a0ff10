// expect: the page's line buffer (radius 4 m, tolerance 0.1 m) is a Polygon; points 3.9 m north of the line's first vertex and 3.9 m south of its midpoint's latitude at its end are inside, a point 4.2 m north of the first vertex is outside; the page's union of two crossing line buffers is one Polygon; a LineString without coordinates -> null, radius 0 -> null (source: https://learn.microsoft.com/kusto/query/geo-line-buffer-function; the page prints the coordinates as "[ ... ]", so the buffer is checked by containment)
let line = dynamic({"type":"LineString","coordinates":[[-80.66634997047466,24.894526340592122],[-80.67373241820246,24.890808090321286]]});
let b = geo_line_buffer(line, 4, 0.1);
let u = toscalar(datatable(line:dynamic)
[
    dynamic({"type":"LineString","coordinates":[[14.429214068940496,50.10043066548272],[14.431184174126173,50.10046525983731]]}),
    dynamic({"type":"LineString","coordinates":[[14.43030222687753,50.100780677801936],[14.4303847111523,50.10020274910934]]})
]
| project buffer = geo_line_buffer(line, 2, 0.1)
| summarize polygons = make_list(buffer)
| project result = geo_union_polygons_array(polygons));
print type = tostring(b.type),
  inside_start = geo_point_in_polygon(-80.66634997047466, 24.894526340592122 + degrees(3.9 / 6371010), b),
  inside_end = geo_point_in_polygon(-80.67373241820246, 24.890808090321286 - degrees(3.9 / 6371010), b),
  outside_start = geo_point_in_polygon(-80.66634997047466, 24.894526340592122 + degrees(4.2 / 6371010), b),
  union_type = tostring(u.type),
  bad_line = isnull(geo_line_buffer(dynamic({"type":"LineString"}), 5)),
  bad_radius = isnull(geo_line_buffer(dynamic({"type":"LineString","coordinates":[[0,0],[1,1]]}), 0))
