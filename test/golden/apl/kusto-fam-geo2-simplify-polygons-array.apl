// expect: an array holding an invalid polygon -> null; tolerance -1 -> null; tolerance 10000 m makes the three Central Park polygons (a few km each) disappear -> null; with 100 m none of their vertices is within 100 m of a chord, so the result is a MultiPolygon of the three polygons unchanged (Quarry's reading of "no two vertices with distance less than tolerance"; the page's 100 m example runs on the US_States table) (source: https://learn.microsoft.com/kusto/query/geo-simplify-polygons-array-function, the page's examples)
let polygons = datatable(polygons:dynamic)
[
    dynamic({"type":"Polygon","coordinates":[[[-73.9495,40.7969],[-73.95807,40.80068],[-73.98201,40.76825],[-73.97317,40.76455],[-73.9495,40.7969]]]}),
    dynamic({"type":"Polygon","coordinates":[[[-73.94622,40.79249],[-73.96888,40.79282],[-73.9577,40.7789],[-73.94622,40.79249]]]}),
    dynamic({"type":"Polygon","coordinates":[[[-73.97335,40.77274],[-73.9936,40.76630],[-73.97171,40.75655],[-73.97335,40.77274]]]})
];
let with_invalid = datatable(polygons:dynamic)
[
    dynamic({"type":"Polygon","coordinates":[[[-73.9495,40.7969],[-73.95807,40.80068],[-73.98201,40.76825],[-73.97317,40.76455],[-73.9495,40.7969]]]}),
    dynamic({"type":"Polygon","coordinates":[[[-73.94622,40.79249]]]})
];
let arr = toscalar(polygons | summarize make_list(polygons));
print is_invalid_polygon = isnull(geo_simplify_polygons_array(toscalar(with_invalid | summarize make_list(polygons)))),
  is_null_bad_tolerance = isnull(geo_simplify_polygons_array(arr, -1)),
  is_null_disappears = isnull(geo_simplify_polygons_array(arr, 10000)),
  simplified_100m = geo_simplify_polygons_array(arr, 100)
