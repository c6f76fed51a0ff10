// expect: the page's 10 km buffer of a Tokyo polygon is a Polygon that contains the polygon's vertex [139.813757, 35.719666], a point 9990 m north of it, and not a point 10020 m north of it (past radius + the default 10 m tolerance; that vertex is the polygon's nearest point); the page's union of two polygon buffers (radii 100 and 20 m) is one Polygon; an invalid polygon -> null, radius 0 -> null (source: https://learn.microsoft.com/kusto/query/geo-polygon-buffer-function; the page prints the coordinates as "[ ... ]", so the buffer is checked by containment)
let polygon = dynamic({"type":"Polygon","coordinates":[[[139.813757,35.719666],[139.72558,35.71813],[139.727471,35.653231],[139.818721,35.657264],[139.813757,35.719666]]]});
let b = geo_polygon_buffer(polygon, 10000);
let u = toscalar(datatable(polygon:dynamic, radius:real)
[
    dynamic({"type":"Polygon","coordinates":[[[12.451218693639277,41.906457003556625],[12.445753852969375,41.90160968881543],[12.453514425793855,41.90361551885886],[12.451218693639277,41.906457003556625]]]}), 100,
    dynamic({"type":"Polygon","coordinates":[[[12.4566086734784,41.905119850039995],[12.453913683559591,41.903652663265234],[12.455485761012113,41.90146110630562],[12.4566086734784,41.905119850039995]]]}), 20
]
| project buffer = geo_polygon_buffer(polygon, radius)
| summarize polygons = make_list(buffer)
| project result = geo_union_polygons_array(polygons));
print type = tostring(b.type),
  vertex_inside = geo_point_in_polygon(139.813757, 35.719666, b),
  inside_9990m = geo_point_in_polygon(139.813757, 35.719666 + degrees(9990.0 / 6371010), b),
  outside_10020m = geo_point_in_polygon(139.813757, 35.719666 + degrees(10020.0 / 6371010), b),
  union_type = tostring(u.type),
  bad_polygon = isnull(geo_polygon_buffer(dynamic({"type":"p"}), 1)),
  bad_radius = isnull(geo_polygon_buffer(dynamic({"type":"Polygon","coordinates":[[[10,10],[0,10],[0,0],[10,10]]]}), 0))
