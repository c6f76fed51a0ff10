// expect: the page's union of three Central Park polygons is a Polygon of 14 positions (13 vertices) whose area equals the area of the page's printed result to 5 m² (geo_polygon_area of this 4.2 km² ring itself varies by about 2 m² with the vertex the ring starts at), and it contains three of the vertices the page prints (two of them new); the page's union of two of them is a Polygon of 12 positions, same area check; an array holding an invalid polygon -> null (source: https://learn.microsoft.com/kusto/query/geo-union-polygons-array-function, the page's examples; the ring starts at another vertex than the page's, and new vertices agree with the page's to about 1e-13 degrees, so the comparison is by area and containment)
let three = toscalar(datatable(polygons:dynamic)
[
    dynamic({"type":"Polygon","coordinates":[[[-73.9495,40.7969],[-73.95807,40.80068],[-73.98201,40.76825],[-73.97317,40.76455],[-73.9495,40.7969]]]}),
    dynamic({"type":"Polygon","coordinates":[[[-73.94622,40.79249],[-73.96888,40.79282],[-73.9577,40.7789],[-73.94622,40.79249]]]}),
    dynamic({"type":"Polygon","coordinates":[[[-73.97335,40.77274],[-73.9936,40.76630],[-73.97171,40.75655],[-73.97335,40.77274]]]})
]
| summarize polygons_arr = make_list(polygons)
| project geo_union_polygons_array(polygons_arr));
let page_three = dynamic({"type":"Polygon","coordinates":[[[-73.972599326729608,40.765330371902991],[-73.960302383706178,40.782140794645024],[-73.9577,40.7789],[-73.94622,40.79249],[-73.9526593223173,40.792584227716468],[-73.9495,40.7969],[-73.95807,40.80068],[-73.9639277517478,40.792748258673875],[-73.96888,40.792819999999992],[-73.9662719791645,40.7895734224338],[-73.9803360309571,40.770518810606404],[-73.9936,40.7663],[-73.97171,40.756550000000004],[-73.972599326729608,40.765330371902991]]]});
let two = toscalar(datatable(polygon1:dynamic, polygon2:dynamic)
[
    dynamic({"type":"Polygon","coordinates":[[[-73.9495,40.7969],[-73.95807,40.80068],[-73.98201,40.76825],[-73.97317,40.76455],[-73.9495,40.7969]]]}), dynamic({"type":"Polygon","coordinates":[[[-73.94622,40.79249],[-73.96888,40.79282],[-73.9577,40.7789],[-73.94622,40.79249]]]})
]
| project polygons_arr = pack_array(polygon1, polygon2)
| project geo_union_polygons_array(polygons_arr));
let page_two = dynamic({"type":"Polygon","coordinates":[[[-73.9495,40.7969],[-73.95807,40.80068],[-73.9639277517478,40.792748258673875],[-73.96888,40.792819999999992],[-73.9662719791645,40.7895734224338],[-73.98201,40.76825],[-73.97317,40.76455],[-73.960302383706178,40.782140794645024],[-73.9577,40.7789],[-73.94622,40.79249],[-73.9526593223173,40.792584227716468],[-73.9495,40.7969]]]});
let invalid = toscalar(datatable(polygons:dynamic)
[
    dynamic({"type":"Polygon","coordinates":[[[-73.9495,40.7969],[-73.95807,40.80068],[-73.98201,40.76825],[-73.97317,40.76455],[-73.9495,40.7969]]]}),
    dynamic({"type":"Polygon","coordinates":[[[-73.94622,40.79249]]]})
]
| summarize polygons_arr = make_list(polygons)
| project isnull(geo_union_polygons_array(polygons_arr)));
print three_type = tostring(three.type), three_positions = array_length(three.coordinates[0]),
  three_area_diff_below_5m2 = abs(geo_polygon_area(three) - geo_polygon_area(page_three)) < 5,
  three_holds_page_vertices = geo_point_in_polygon(-73.9803360309571, 40.770518810606404, three) and geo_point_in_polygon(-73.9526593223173, 40.792584227716468, three) and geo_point_in_polygon(-73.9936, 40.7663, three),
  two_type = tostring(two.type), two_positions = array_length(two.coordinates[0]),
  two_area_diff_below_5m2 = abs(geo_polygon_area(two) - geo_polygon_area(page_two)) < 5,
  invalid_union = invalid
