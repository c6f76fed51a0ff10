// expect: the page's Madrid polygon at the default resolution 6 -> its 13 cells, here sorted: ["86390ca07ffffff","86390ca27ffffff","86390ca2fffffff","86390ca37ffffff","86390cb07ffffff","86390cb0fffffff","86390cb17ffffff","86390cb1fffffff","86390cb57ffffff","86390cb87ffffff","86390cb8fffffff","86390cba7ffffff","86390cbafffffff"] (Quarry lists them in another order than the page); a 1 km buffer adds cells and keeps all 13; an invalid polygon -> null; resolution 16 -> null; resolution 15 (about 30 million cells, past the 61,680 limit) -> null (source: https://learn.microsoft.com/kusto/query/geo-polygon-to-h3cells-function, the page's examples and limits)
let polygon = dynamic({"type":"Polygon","coordinates":[[[-3.659,40.553],[-3.913,40.409],[-3.729,40.273],[-3.524,40.440],[-3.659,40.553]]]});
let cells = geo_polygon_to_h3cells(polygon);
let buffered = geo_polygon_to_h3cells(polygon, 6, 1000);
print h3_cells = array_sort_asc(cells),
  buffered_more = array_length(buffered) > array_length(cells),
  buffered_keeps_all = array_length(set_intersect(buffered, cells)) == 13,
  is_null = isnull(geo_polygon_to_h3cells(dynamic({"type":"Polygon","coordinates":[[[0,0],[1,1]]]}))),
  bad_resolution = isnull(geo_polygon_to_h3cells(polygon, 16)),
  too_many = isnull(geo_polygon_to_h3cells(polygon, 15))
